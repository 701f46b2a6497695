import request from 'supertest';
import type { Kernel } from '../../src/kernel/createKernel';
import { debugMessage } from '../helpers/http';
import { bareKernel, layeredKernel, PANELS, send, STATUS_CASES, tokenOf } from './kernel';

let kernel: Kernel;
let bare: Kernel;
const tokens: Record<number, string> = {};

beforeAll(async () => {
  kernel = layeredKernel();
  bare = bareKernel();
  for (const c of STATUS_CASES) {
    const res = await send(kernel, c);
    expect(res.status).toBe(c.status);
    tokens[c.status] = tokenOf(res);
  }
});

afterAll(async () => {
  await kernel.close();
  await bare.close();
});

describe('GET /_profiler/{token}?panel=<name>', () => {
  const cases = STATUS_CASES.flatMap((c) => PANELS.map((panel) => [c.status, panel] as const));

  test.each(cases)('the %d profile renders the %s panel', async (status, panel) => {
    const res = await request(kernel).get(`/_profiler/${tokens[status]}?panel=${panel}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`id="panel-${panel}"`);
    expect(res.text).toContain('<ul id="menu-profiler">');
    for (const p of PANELS) expect(res.text).toContain(`href="/_profiler/${tokens[status]}?panel=${p}"`);
    expect(res.headers['x-debug-token']).toBeUndefined();
  });

  test('the default panel is exception when the request threw, else request', async () => {
    for (const status of [404, 405, 500]) {
      expect((await request(kernel).get(`/_profiler/${tokens[status]}`)).text).toContain('id="panel-exception"');
    }
    expect((await request(kernel).get(`/_profiler/${tokens[200]}`)).text).toContain('id="panel-request"');
  });

  test('the menu marks the exception panel red with a count of 1 on an error, disabled on a 200', async () => {
    const failed = (await request(kernel).get(`/_profiler/${tokens[404]}`)).text;
    expect(failed).toMatch(/<li class="exception label-status-error[^"]*">\s*<a [^>]*><span class="label">Exception<\/span> <span class="count">1<\/span>/);
    const ok = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=request`)).text;
    expect(ok).toMatch(/<li class="exception label-status-disabled disabled">/);
  });

  test('the pages forbid scripts with their own Content-Security-Policy', async () => {
    const res = await request(kernel).get(`/_profiler/${tokens[200]}`);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['cache-control']).toBe('no-cache, private');
  });
});

describe('exception panel', () => {
  test('a 404 shows the routing message and HTTP 404 Not Found, with its cause', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[404]}?panel=exception`)).text;
    expect(html).toMatch(/No route found for &quot;GET http:\/\/127\.0\.0\.1:\d+\/nope&quot;/);
    expect(html).toContain('HTTP 404 Not Found');
    expect(html).toContain('<strong class="exception-class">NotFoundHttpError</strong>');
    expect(html).toContain('<strong class="exception-class">ResourceNotFoundError</strong>');
  });

  test('a 405 shows the allowed methods', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[405]}?panel=exception`)).text;
    expect(html).toContain('Method Not Allowed (Allow: GET, POST)');
    expect(html).toContain('HTTP 405 Method Not Allowed');
  });

  test('a 500 shows the message, the class and a source excerpt of the throwing line', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[500]}?panel=exception`)).text;
    expect(html).toContain('<h3 class="exception-message">Kaboom</h3>');
    expect(html).toContain('HTTP 500 Internal Server Error');
    expect(html).toMatch(/<li class="selected"><code>.*throw new Error\(&#39;Kaboom&#39;\);.*<\/code><\/li>/);
  });

  test('the stored profile keeps frames without source: the panel reads the excerpt when it is shown', async () => {
    const profile = await kernel.profiler?.storage.read(tokens[500]);
    const data = profile?.collectors.exception as {
      exceptions: Array<{ frames: Array<{ file?: string; line?: number; excerpt?: unknown }> }>;
    };
    const frames = data.exceptions[0].frames;
    expect(frames.some((f) => f.file !== undefined && f.line !== undefined)).toBe(true);
    expect(frames.filter((f) => f.excerpt !== undefined)).toEqual([]);
    expect(profile?.exception?.[0]).not.toHaveProperty('stack');
    expect(profile?.exception?.[0].message).toBe('Kaboom');
  });

  test('a 200 says no exception was thrown', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=exception`)).text;
    expect(html).toContain('No exception was thrown and caught during the request.');
  });

  test('/_profiler/{token}/exception is the panel alone, /exception.css its stylesheet', async () => {
    const page = await request(kernel).get(`/_profiler/${tokens[500]}/exception`);
    expect(page.status).toBe(200);
    expect(page.text.startsWith('<section id="panel-exception"')).toBe(true);
    expect(page.text).toContain('Kaboom');
    const css = await request(kernel).get(`/_profiler/${tokens[500]}/exception.css`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });
});

describe('router panel', () => {
  test('a near miss logs "Path almost matches" with the failing requirement', async () => {
    const token = tokenOf(await request(kernel).get('/xx/about'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=router`)).text;
    expect(html).toContain('Path almost matches, but Requirement for &quot;_locale&quot; does not match (en|fr|de)');
    expect(html).toContain('<tr><th scope="row">Matched route</th><td>(none)</td></tr>');
  });

  test('a match names the route and ends the log with "Route matches!"', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=router`)).text;
    expect(html).toContain('<td>book_list</td>');
    expect(html).toMatch(/<tr class="trace-ROUTE_MATCHES"><td>\d+<\/td><td>book_list<\/td><td>\/api\/books\.\{_format\}<\/td><td>Route matches!<\/td><\/tr>/);
  });

  test('a trailing-slash redirect records the target', async () => {
    const token = tokenOf(await request(kernel).get('/hello'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=router`)).text;
    expect(html).toMatch(/Redirected to<\/th><td>http:\/\/127\.0\.0\.1:\d+\/hello\/<\/td>/);
  });

  test('/_profiler/{token}/router is the panel alone', async () => {
    const res = await request(kernel).get(`/_profiler/${tokens[404]}/router`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h2 id="router-title">Routing</h2>');
    expect(res.text).toContain('Route Matching Logs');
  });
});

describe('time and memory panels', () => {
  test('the timeline draws one waterfall bar per timed layer', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=time`)).text;
    for (const layer of ['cors', 'session', 'firewall', 'locale', 'time-zone', 'router']) expect(html).toContain(`<tr><td>${layer}</td>`);
    expect(html).toMatch(/<div class="bar" style="left: [\d.]+%; width: [\d.]+%"><\/div>/);
    expect(html).toMatch(/Total duration: <strong>[\d.]+ ms<\/strong>/);
  });

  test('memory shows heap used and peak RSS in MiB', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=memory`)).text;
    expect(html).toMatch(/Heap used<\/th><td>[\d.]+ MiB/);
    expect(html).toMatch(/Peak resident set size \(RSS\)<\/th><td>[1-9][\d.]* MiB/);
  });
});

describe('logger panel', () => {
  test('lists what req.log emitted, debug included, with a level filter', async () => {
    const token = tokenOf(await request(kernel).get('/t/logs'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=logger`)).text;
    for (const msg of ['debug detail', 'loaded book', 'slow query', 'db failed']) expect(html).toContain(`<td>${msg}</td>`);
    expect(html).toContain('<select name="level">');
    const warnings = (await request(kernel).get(`/_profiler/${token}?panel=logger&level=warn`)).text;
    expect(warnings).not.toContain('<td>loaded book</td>');
    expect(warnings).toContain('<td>slow query</td>');
    expect(warnings).toContain('<td>db failed</td>');
    expect(warnings).toContain('<option value="warn" selected>');
  });

  test('the menu counts log errors', async () => {
    const token = tokenOf(await request(kernel).get('/t/logs'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=logger`)).text;
    expect(html).toMatch(/<li class="logger label-status-error selected">\s*<a [^>]*><span class="label">Logs<\/span> <span class="count">1<\/span>/);
  });

  test('a 500 logs "request failed" through the request logger', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[500]}?panel=logger`)).text;
    expect(html).toContain('<td>request failed</td>');
  });
});

describe('layer panels', () => {
  test('security shows the firewall, the user, roles and access decisions', async () => {
    const token = tokenOf(await request(kernel).get('/admin').auth('admin', 'admin'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=security`)).text;
    expect(html).toContain('<tr><th scope="row">Firewall</th><td>main</td></tr>');
    expect(html).toContain('<tr><th scope="row">User</th><td>admin</td></tr>');
    expect(html).toContain('ROLE_ADMIN');
    expect(html).toContain('<td>granted</td><td>access_control</td>');
  });

  test('security shows an anonymous client and a denial', async () => {
    const token = tokenOf(await request(kernel).get('/admin'));
    const html = (await request(kernel).get(`/_profiler/${token}?panel=security`)).text;
    expect(html).toContain('<tr><th scope="row">User</th><td>anonymous</td></tr>');
    expect(html).toContain('<td>denied</td>');
  });

  test.each([
    ['cors', () => request(kernel).get('/api/books').set('Origin', 'http://app.example'), [
      '<tr><th scope="row">Origin</th><td>http://app.example</td></tr>',
      '<tr><th scope="row">Rule</th><td>^/api</td></tr>',
      '<tr><th scope="row">access-control-allow-origin</th><td>http://app.example</td></tr>',
    ]],
    ['locale', () => request(kernel).get('/fr/about'), [
      '<tr><th scope="row">Locale</th><td>fr</td></tr>',
      '<tr><th scope="row">Chosen from</th><td>route</td></tr>',
    ]],
    ['timezone', () => request(kernel).get('/api/books').set('Time-Zone', 'Europe/Paris'), [
      '<tr><th scope="row">Time zone</th><td>Europe/Paris</td></tr>',
      '<tr><th scope="row">Chosen from</th><td>header</td></tr>',
    ]],
  ])('%s shows what its layer decided and why', async (panel, send, rows) => {
    const token = tokenOf(await send());
    const html = (await request(kernel).get(`/_profiler/${token}?panel=${panel}`)).text;
    for (const row of rows) expect(html).toContain(row);
  });

  test('session shows the store and whether a session started', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=session`)).text;
    expect(html).toContain('<tr><th scope="row">Store</th><td>memory</td></tr>');
    expect(html).toContain('<tr><th scope="row">Started</th><td>no</td></tr>');
  });

  test.each([['security', 'firewall'], ['session', 'session'], ['cors', 'cors'], ['locale', 'locale'], ['timezone', 'time-zone']])(
    'without its layer, the %s panel says it is not enabled',
    async (panel, layer) => {
      const token = tokenOf(await request(bare).get('/api/books'));
      const html = (await request(bare).get(`/_profiler/${token}?panel=${panel}`)).text;
      expect(html).toContain(`is not enabled: the kernel was created without the <code>${layer}</code> layer.`);
      expect(html).toMatch(new RegExp(`<li class="${panel} label-status-disabled selected disabled">`));
    },
  );
});

describe('config panel', () => {
  test('shows the versions, the environment and the options, secrets redacted', async () => {
    const html = (await request(kernel).get(`/_profiler/${tokens[200]}?panel=config`)).text;
    expect(html).toContain(`<tr><th scope="row">Node.js</th><td>${process.version}</td></tr>`);
    expect(html).toMatch(/<tr><th scope="row">Express<\/th><td>5\.\d+\.\d+<\/td><\/tr>/);
    expect(html).toContain('<tr><th scope="row">Environment</th><td>test</td></tr>');
    expect(html).toContain('<tr><th scope="row">secret</th><td>******</td></tr>');
    expect(html).not.toContain('kernel-secret-0123456789');
    expect(html).not.toMatch(/PATH|HOME=/);
  });
});

describe('unknown tokens and panels (FINDINGS §10)', () => {
  test('an unknown token is a 200 "Token not found" page without a menu', async () => {
    for (const url of ['/_profiler/zzzzzz', '/_profiler/zzzzzz?panel=exception']) {
      const res = await request(kernel).get(url);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h2>Token not found</h2>');
      expect(res.text).toContain('Token &quot;zzzzzz&quot; not found.');
      expect(res.text).not.toContain('menu-profiler');
    }
  });

  test('an unknown panel of a known token is a 404 naming both', async () => {
    const res = await request(kernel).get(`/_profiler/${tokens[404]}?panel=unknownpanel`);
    expect(res.status).toBe(404);
    expect(debugMessage(res.headers)).toBe(`Panel "unknownpanel" is not available for token "${tokens[404]}".`);
  });

  test('/_wdt/zzzzzz is a 404 with an empty body, /_wdt/empty a 200 with an empty body', async () => {
    const unknown = await request(kernel).get('/_wdt/zzzzzz');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
    const empty = await request(kernel).get('/_wdt/empty');
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('');
  });

  test('any method reaches the pages', async () => {
    expect((await request(kernel).post(`/_profiler/${tokens[404]}`).type('form').send('a=b')).status).toBe(200);
  });
});

describe('search and latest', () => {
  test('/_profiler/ redirects to the last 10 results, relatively', async () => {
    const res = await request(kernel).get('/_profiler/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/_profiler/empty/search/results?limit=10');
  });

  test('the results page lists profiles newest first, with a search form', async () => {
    const k = bareKernel();
    const sent = [];
    for (const path of ['/api', '/nope', '/api/books']) sent.push(tokenOf(await request(k).get(path)));
    const html = (await request(k).get('/_profiler/empty/search/results?limit=10')).text;
    expect(html).toContain('<h2>3 results found</h2>');
    const order = [...html.matchAll(/<td><a href="\/_profiler\/([0-9a-f]{6})">/g)].map((m) => m[1]);
    expect(order).toEqual([...sent].reverse());
    for (const field of ['ip', 'method', 'status', 'url', 'start', 'end', 'limit']) expect(html).toContain(`name="${field}"`);
    expect(html).toContain('action="/_profiler/search"');
    await k.close();
  });

  test('the results page filters by method, status, URL substring, IP, dates and limit', async () => {
    const k = bareKernel();
    await request(k).get('/api');
    await request(k).get('/nope');
    await request(k).delete('/api/books');
    const count = async (qs: string): Promise<number> => Number(/<h2>(\d+) results found<\/h2>/.exec((await request(k).get(`/_profiler/empty/search/results?${qs}`)).text)?.[1]);
    expect(await count('method=DELETE')).toBe(1);
    expect(await count('status=404')).toBe(1);
    expect(await count('url=%2Fapi')).toBe(2);
    expect(await count('ip=127.0.0.1')).toBe(3);
    expect(await count('ip=10.9.9.9')).toBe(0);
    expect(await count('limit=2')).toBe(2);
    expect(await count('start=2000-01-01&end=2999-12-31')).toBe(3);
    expect(await count('end=2000-01-01')).toBe(0);
    expect(await count('status=abc')).toBe(3);
    await k.close();
  });

  test('/_profiler/search redirects to the results of the newest match, or to a token', async () => {
    const k = bareKernel();
    const token = tokenOf(await request(k).get('/nope'));
    await request(k).get('/api');
    const res = await request(k).get('/_profiler/search?status=404&limit=10');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/_profiler/${token}/search/results?status=404&limit=10`);
    const direct = await request(k).get(`/_profiler/search?token=${token}`);
    expect(direct.headers.location).toBe(`/_profiler/${token}`);
    await k.close();
  });

  test('/_profiler/latest shows the newest profile', async () => {
    const k = bareKernel();
    await request(k).get('/api');
    // a profile's time is its request's start in whole ms (ties go by token): start apart
    await new Promise((resolve) => setTimeout(resolve, 10));
    const token = tokenOf(await request(k).get('/nope'));
    const html = (await request(k).get('/_profiler/latest')).text;
    expect(html).toContain(`<dt>Token</dt><dd>${token}</dd>`);
    expect(html).toContain('id="panel-exception"');
    await k.close();
  });

  test('with no profile yet, latest is "Token not found"', async () => {
    const k = bareKernel();
    expect((await request(k).get('/_profiler/latest')).text).toContain('Token &quot;latest&quot; not found.');
    await k.close();
  });
});

describe('allowed clients', () => {
  test('a client outside profiler.allowedIps gets the no-route 404 on every page', async () => {
    const k = bareKernel({ profiler: { allowedIps: ['10.0.0.0/8'] } });
    const token = tokenOf(await request(k).get('/api'));
    for (const url of [`/_profiler/${token}`, '/_profiler/', `/_wdt/${token}`, '/_wdt/toolbar.js', '/_profiler/api/profiles', `/_profiler/${token}/compare/${token}`]) {
      const res = await request(k).get(url);
      expect(res.status).toBe(404);
      // the plain page: a client the profiler refuses sees no debug output either
      expect(res.headers['x-debug-exception']).toBeUndefined();
      expect(res.text).toMatch(/No route found for &quot;GET http:\/\/127\.0\.0\.1:\d+\/_(profiler|wdt)/);
    }
    await k.close();
  });

  test('without debug there is no profiler at all', async () => {
    const k = bareKernel({ debug: false });
    const res = await request(k).get('/api');
    expect(res.headers['x-debug-token']).toBeUndefined();
    expect((await request(k).get('/_profiler/')).status).toBe(404);
    await k.close();
  });
});
