/*
 * express-kernel web debug toolbar. Loaded by the snippet the profiler puts before </body>:
 *   <div id="ek-wdt-TOKEN"></div><script src="BASE/_wdt/toolbar.js" data-token="TOKEN" data-base="BASE"></script>
 * It fetches BASE/_wdt/TOKEN (the profile is stored before the page's last byte leaves, so this
 * never 404s), and lists the fetch()/XMLHttpRequest calls the page makes afterwards, with links to
 * their profiles (read from their X-Debug-Token headers). Nothing from a response is inserted as
 * HTML except the toolbar fragment itself, which the server escaped.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var token = script.getAttribute('data-token') || '';
  var base = script.getAttribute('data-base') || '';
  var root = document.getElementById('ek-wdt-' + token);
  if (!root || window.__expressKernelToolbar) return;
  window.__expressKernelToolbar = true;

  var TOKEN = /^[0-9a-z]{1,64}$/i;
  var EXCLUDED = /\/(_wdt|_profiler)(\/|$)/;
  var MAX_REQUESTS = 50;
  var requests = [];
  var originalFetch = window.fetch;

  function cell(row, text) {
    var td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function render() {
    var block = root.querySelector('[data-ek-ajax]');
    var rows = root.querySelector('[data-ek-ajax-rows]');
    var count = root.querySelector('[data-ek-ajax-count]');
    if (!block || !rows || !count) return;
    block.hidden = requests.length === 0;
    count.textContent = String(requests.length);
    var pending = requests.some(function (r) { return r.status === null; });
    block.className = 'ek-block ek-block-ajax ek-status-' + (pending ? 'none' : requests.some(function (r) { return r.status === 0 || r.status >= 400; }) ? 'error' : 'success');
    while (rows.firstChild) rows.removeChild(rows.firstChild);
    for (var i = requests.length - 1; i >= 0; i--) {
      var r = requests[i];
      var tr = document.createElement('tr');
      var link = cell(tr, '');
      if (r.token) {
        var a = document.createElement('a');
        a.href = base + '/_profiler/' + r.token;
        a.textContent = r.token;
        link.appendChild(a);
      } else {
        link.textContent = r.status === null ? '…' : 'n/a';
      }
      cell(tr, r.method);
      cell(tr, r.status === null ? '…' : String(r.status));
      cell(tr, r.url);
      cell(tr, r.duration === null ? '' : r.duration + ' ms');
      rows.appendChild(tr);
    }
  }

  function track(method, url) {
    if (EXCLUDED.test(url)) return null;
    var entry = { method: String(method || 'GET').toUpperCase(), url: String(url), status: null, token: null, start: Date.now(), duration: null };
    requests.push(entry);
    if (requests.length > MAX_REQUESTS) requests.shift();
    render();
    return entry;
  }

  function finish(entry, status, debugToken) {
    if (!entry) return;
    entry.status = status;
    entry.token = debugToken && TOKEN.test(debugToken) ? debugToken : null;
    entry.duration = Date.now() - entry.start;
    render();
  }

  if (typeof originalFetch === 'function') {
    window.fetch = function (input, init) {
      var url = typeof input === 'string' ? input : input && input.url ? input.url : String(input);
      var method = (init && init.method) || (input && typeof input === 'object' && input.method) || 'GET';
      var entry = track(method, url);
      var promise = originalFetch.apply(this, arguments);
      promise.then(function (response) {
        finish(entry, response.status, response.headers.get('X-Debug-Token'));
      }, function () {
        finish(entry, 0, null);
      });
      return promise;
    };
  }

  if (window.XMLHttpRequest) {
    var open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url) {
      var xhr = this;
      var entry = track(method, url);
      if (entry) {
        xhr.addEventListener('loadend', function () {
          var header = null;
          try { header = xhr.getResponseHeader('X-Debug-Token'); } catch { header = null; }
          finish(entry, xhr.status, header);
        });
      }
      return open.apply(this, arguments);
    };
  }

  // The toolbar is fixed to the bottom of the window: a block of its height at the end of the page
  // (Symfony's sf-toolbar-clearer) lets the page's last lines scroll above it, never under it.
  var clearer = document.createElement('div');
  clearer.className = 'ek-wdt-clearer';
  clearer.setAttribute('aria-hidden', 'true');
  root.parentNode.insertBefore(clearer, root);

  function fit() {
    clearer.style.height = root.offsetHeight + 'px';
  }

  function collapse(hidden) {
    root.classList.toggle('ek-hidden', hidden);
    var button = root.querySelector('[data-ek-hide]');
    if (button) {
      button.setAttribute('aria-expanded', hidden ? 'false' : 'true');
      button.setAttribute('aria-label', hidden ? 'Show the debug toolbar' : 'Hide the debug toolbar');
    }
    fit();
  }

  function hide(hidden) {
    collapse(hidden);
    try { window.sessionStorage.setItem('ek-toolbar-hidden', hidden ? '1' : '0'); } catch { /* storage disabled */ }
  }

  function show(html) {
    root.innerHTML = html;
    var button = root.querySelector('[data-ek-hide]');
    if (button) button.addEventListener('click', function () { hide(!root.classList.contains('ek-hidden')); });
    // collapsed until asked for on a small screen, where its blocks would take several lines
    var hidden = window.matchMedia ? window.matchMedia('(max-width: 40rem)').matches : false;
    try {
      var kept = window.sessionStorage.getItem('ek-toolbar-hidden');
      if (kept !== null) hidden = kept === '1';
    } catch { /* storage disabled: the default */ }
    collapse(hidden);
    if (typeof window.ResizeObserver === 'function') new window.ResizeObserver(fit).observe(root);
    else window.addEventListener('resize', fit);
    render();
  }

  if (typeof originalFetch !== 'function') return;
  originalFetch.call(window, base + '/_wdt/' + encodeURIComponent(token), { headers: { 'X-Requested-With': 'XMLHttpRequest' }, credentials: 'same-origin' })
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    })
    .then(show, function (error) {
      root.textContent = 'An error occurred while loading the web debug toolbar (' + error.message + ').';
      root.className = 'ek-wdt ek-wdt-error';
      fit();
    });
})();
