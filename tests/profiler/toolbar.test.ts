import request from 'supertest';
import { bareKernel, layeredKernel, tokenOf, useKernel } from './kernel';

const SNIPPET = /<div id="ek-wdt-([0-9a-f]{6})" class="ek-wdt" data-token="\1"><\/div><link rel="stylesheet" href="\/_wdt\/styles\.css"><script src="\/_wdt\/toolbar\.js" data-token="\1" data-base=""><\/script>\n<\/body>/;

const kernel = useKernel(bareKernel);

describe('toolbar injection', () => {
  test('an HTML page gets the loader before its last </body>, with its own token', async () => {
    const res = await request(kernel()).get('/');
    expect(res.status).toBe(200);
    const m = SNIPPET.exec(res.text);
    expect(m).not.toBeNull();
    expect(m?.[1]).toBe(tokenOf(res));
    expect(res.text.endsWith('</body></html>')).toBe(true);
  });

  test('Content-Length is the injected body\'s length, and the ETag is gone', async () => {
    const res = await request(kernel()).get('/');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers.etag).toBeUndefined();
  });

  test('the last </body> wins, whatever its case', async () => {
    const res = await request(kernel()).get('/t/two-bodies');
    expect(res.text).toMatch(/<pre>&lt;\/body&gt; <\/body><\/pre><div id="ek-wdt-[0-9a-f]{6}"[^]*<\/script>\n<\/BODY><\/html>$/);
  });

  test('an HTML error page gets the toolbar too', async () => {
    const res = await request(kernel()).get('/nope').set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.text).toContain(`<div id="ek-wdt-${tokenOf(res)}"`);
  });

  test.each([
    ['JSON', () => request(kernel()).get('/api/books')],
    ['a JSON error', () => request(kernel()).get('/nope').set('Accept', 'application/json')],
    ['plain text', () => request(kernel()).get('/plain')],
    ['a redirect', () => request(kernel()).get('/hello').redirects(0)],
    ['an XHR', () => request(kernel()).get('/').set('X-Requested-With', 'XMLHttpRequest')],
    ['a fetch()', () => request(kernel()).get('/').set('Sec-Fetch-Dest', 'empty')],
    ['an attachment', () => request(kernel()).get('/t/attachment')],
    ['a streamed page', () => request(kernel()).get('/t/stream')],
    ['a page without </body>', () => request(kernel()).get('/t/fragment')],
  ])('%s gets no toolbar', async (_what, send) => {
    const res = await send();
    expect(res.headers['x-debug-token']).toMatch(/^[0-9a-f]{6}$/);
    expect(res.text ?? '').not.toContain('ek-wdt');
    if (res.headers['content-length'] !== undefined) expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text ?? ''));
  });

  test('a HEAD gets no toolbar and the GET\'s Content-Length without the toolbar', async () => {
    const head = await request(kernel()).head('/');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength('<html><body><h1>home</h1></body></html>'));
  });

  test('a page with a nonce-based CSP gets the nonces on the script and stylesheet tags', async () => {
    const res = await request(kernel()).get('/t/csp');
    expect(res.text).toContain('<link rel="stylesheet" href="/_wdt/styles.css" nonce="def456">');
    expect(res.text).toContain('data-base="" nonce="abc123"></script>');
  });

  test('a client that may not open the profiler gets no toolbar', async () => {
    const k = bareKernel({ profiler: { allowedIps: ['10.0.0.0/8'] } });
    const res = await request(k).get('/');
    expect(res.headers['x-debug-token']).toMatch(/^[0-9a-f]{6}$/);
    expect(res.text).toBe('<html><body><h1>home</h1></body></html>');
    await k.close();
  });

  test('a mounted kernel points the loader at its mount path', async () => {
    const express = (await import('express')).default;
    const host = express();
    host.use('/app', kernel());
    const res = await request(host).get('/app/');
    expect(res.text).toContain('<script src="/app/_wdt/toolbar.js" data-token="');
    expect(res.text).toContain('data-base="/app"');
    expect((await request(host).get(`/app/_wdt/${tokenOf(res)}`)).status).toBe(200);
  });
});

describe('GET /_wdt/{token}', () => {
  test('is there as soon as the page is: the profile is stored before the response ends', async () => {
    for (let i = 0; i < 20; i++) {
      const page = await request(kernel()).get('/');
      const wdt = await request(kernel()).get(`/_wdt/${tokenOf(page)}`);
      expect(wdt.status).toBe(200);
    }
  });

  test('shows status, route, time and memory, linking to the panels', async () => {
    const token = tokenOf(await request(kernel()).get('/'));
    const html = (await request(kernel()).get(`/_wdt/${token}`)).text;
    expect(html).toContain('<!-- START of express-kernel Web Debug Toolbar -->');
    expect(html).toContain(`<a class="ek-block ek-block-request ek-status-success" href="/_profiler/${token}?panel=request" title="Request / Response"><span class="ek-label">Request / Response</span> <span class="ek-value">200 @ home</span></a>`);
    expect(html).toMatch(/ek-block-time ek-status-none"[^>]*><span class="ek-label">Performance<\/span> <span class="ek-value">\d+ ms<\/span>/);
    expect(html).toMatch(/ek-block-memory[^>]*><span class="ek-label">Memory<\/span> <span class="ek-value">[\d.]+ MiB<\/span>/);
    expect(html).not.toContain('ek-block-exception');
    expect(html).toContain('data-ek-ajax');
  });

  test('shows the exception class of a failed request, in red', async () => {
    const token = tokenOf(await request(kernel()).get('/boom'));
    const html = (await request(kernel()).get(`/_wdt/${token}`)).text;
    expect(html).toContain('ek-block-request ek-status-error');
    expect(html).toMatch(/ek-block-exception ek-status-error"[^>]*><span class="ek-label">Exception<\/span> <span class="ek-value">Error<\/span>/);
  });

  test('shows the authenticated user', async () => {
    const k = layeredKernel();
    const token = tokenOf(await request(k).get('/admin').auth('admin', 'admin'));
    const html = (await request(k).get(`/_wdt/${token}`)).text;
    expect(html).toMatch(/ek-block-security ek-status-success"[^>]*><span class="ek-label">Security<\/span> <span class="ek-value">admin<\/span>/);
    await k.close();
  });
});

describe('toolbar assets', () => {
  test('/_wdt/toolbar.js loads the fragment and tracks fetch and XHR by their X-Debug-Token', async () => {
    const res = await request(kernel()).get('/_wdt/toolbar.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.text).toContain("'/_wdt/' + encodeURIComponent(token)");
    expect(res.text).toContain('window.fetch = function');
    expect(res.text).toContain('XMLHttpRequest.prototype.open = function');
    expect(res.text).toContain("getResponseHeader('X-Debug-Token')");
    expect(res.text).not.toContain('innerHTML = r');
  });

  test('/_wdt/styles.css is the stylesheet', async () => {
    const res = await request(kernel()).get('/_wdt/styles.css');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.text).toContain('.ek-wdt');
  });
});
