import request from 'supertest';
import type { Kernel } from '../../src/kernel/createKernel';
import { listen, rawRequest, type Listening } from '../helpers/http';
import { bareKernel, layeredKernel, pageUrls } from './kernel';

const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x>';
/** For a request-target, which cannot hold a space. */
const SVG = '"><svg/onload=alert(2)>';
/** What must never appear unescaped on a page. */
const RAW = [SCRIPT, '<img src=x>', '"><img', '<svg/onload'];

let kernel: Kernel;
let server: Listening;
const tokens: string[] = [];

function unescaped(html: string): string[] {
  return RAW.filter((r) => html.includes(r));
}

beforeAll(async () => {
  kernel = layeredKernel();
  server = await listen(kernel);
  const sends = [
    // percent-encoded, as a browser sends it
    rawRequest(server, { method: 'GET', target: '/%3Cscript%3Ealert(1)%3C/script%3E', headers: { Referer: IMG } }),
    // raw bytes in the request-target and the query
    rawRequest(server, { method: 'GET', target: `/${SCRIPT}?q=${SCRIPT}`, headers: { Referer: IMG, 'User-Agent': SCRIPT } }),
    rawRequest(server, { method: 'GET', target: `/api/books?${SVG}=${SCRIPT}`, headers: { Origin: `http://x${IMG}`, Cookie: `${SCRIPT}=1` } }),
    rawRequest(server, { method: 'POST', target: '/t/echo', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ [SCRIPT]: IMG }) }),
    rawRequest(server, { method: 'GET', target: '/boom', headers: { 'Time-Zone': SCRIPT, 'Accept-Language': IMG } }),
  ];
  for (const s of sends) {
    const res = await s;
    tokens.push(String(res.headers['x-debug-token']));
  }
});

afterAll(async () => {
  await server.close();
  await kernel.close();
});

describe('every page escapes what it echoes', () => {
  test('the requests were profiled', () => {
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{6}$/);
  });

  test('panels, toolbar, sub-pages, search results and compare show only escaped forms', async () => {
    for (const url of pageUrls(tokens)) {
      const res = await request(kernel).get(url);
      expect(res.status).toBe(200);
      expect({ url, unescaped: unescaped(res.text) }).toEqual({ url, unescaped: [] });
    }
  });

  test('the echoed input is there, escaped', async () => {
    const exception = (await request(kernel).get(`/_profiler/${tokens[1]}?panel=exception`)).text;
    expect(exception).toContain('/&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(exception).toContain('(from &quot;&quot;&gt;&lt;img src=x&gt;&quot;)');
    const req = (await request(kernel).get(`/_profiler/${tokens[1]}?panel=request`)).text;
    expect(req).toContain('<tr><th scope="row">user-agent</th><td>&lt;script&gt;alert(1)&lt;/script&gt;</td></tr>');
    const encoded = (await request(kernel).get(`/_profiler/${tokens[0]}?panel=request`)).text;
    expect(encoded).toContain('/%3Cscript%3Ealert(1)%3C/script%3E');
  });

  test('the search form echoes its filters escaped', async () => {
    const res = await request(kernel).get(`/_profiler/empty/search/results?url=${encodeURIComponent(IMG + SCRIPT)}&ip=${encodeURIComponent(IMG)}`);
    expect(unescaped(res.text)).toEqual([]);
    expect(res.text).toContain('name="url" value="&quot;&gt;&lt;img src=x&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  test('an unknown token or panel is echoed escaped', async () => {
    const token = await request(kernel).get(`/_profiler/${encodeURIComponent(IMG)}`);
    expect(token.status).toBe(200);
    expect(unescaped(token.text)).toEqual([]);
    expect(token.text).toContain('Token &quot;&quot;&gt;&lt;img src=x&gt;&quot; not found.');
    const panel = await request(kernel).get(`/_profiler/${tokens[0]}?panel=${encodeURIComponent(SCRIPT)}`).set('Accept', 'text/html');
    expect(panel.status).toBe(404);
    expect(unescaped(panel.text)).toEqual([]);
    const compare = await request(kernel).get(`/_profiler/${tokens[0]}/compare/${encodeURIComponent(SCRIPT)}`);
    expect(unescaped(compare.text)).toEqual([]);
  });

  test('the toolbar loader escapes the base URL a trusted proxy sends', async () => {
    const k = bareKernel({ trustedProxies: ['127.0.0.1', '::ffff:127.0.0.1', '::1'] });
    const s = await listen(k);
    // a prefix that is no path is refused (400), and the error page does not echo it raw
    const refused = await rawRequest(s, { method: 'GET', target: '/', headers: { 'X-Forwarded-Prefix': `/app${IMG}` } });
    // quotes and ampersands are path characters: accepted, and escaped where the loader echoes them
    const res = await rawRequest(s, { method: 'GET', target: '/', headers: { 'X-Forwarded-Prefix': "/app'&x='" } });
    await s.close();
    await k.close();
    expect(refused.status).toBe(400);
    expect(unescaped(refused.body)).toEqual([]);
    expect(res.status).toBe(200);
    expect(res.body).toContain('ek-wdt');
    expect(res.body).not.toContain("/app'&x='");
  });
});
