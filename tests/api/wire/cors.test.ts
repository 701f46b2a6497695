/**
 * Issue 24, point 6: the demo's CORS on `/api` lets a browser client on another origin use the
 * ETag flow and Hydra discovery (request headers `If-Match`, `If-None-Match`, `Prefer`; response
 * headers `ETag`, `Location`, `Link`, `Content-Location`, `Accept-Patch` readable).
 */
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';

const ORIGIN = 'http://localhost:3000';
let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: false }); });
afterEach(async () => { await kernel.close(); });

test('a preflight allows the conditional and preference headers', async () => {
  const res = await request(kernel).options('/api/books/1').set('Origin', ORIGIN)
    .set('Access-Control-Request-Method', 'PATCH')
    .set('Access-Control-Request-Headers', 'content-type, authorization, if-match, if-none-match, prefer');
  const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
  for (const h of ['if-match', 'if-none-match', 'prefer', 'content-type', 'authorization']) expect(allowed).toContain(h);
});

test('a response exposes ETag, Location, Link, Content-Location and Accept-Patch', async () => {
  const res = await request(kernel).get('/api/books/1').set('Origin', ORIGIN);
  const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/\s*,\s*/);
  for (const h of ['etag', 'location', 'link', 'content-location', 'accept-patch']) expect(exposed).toContain(h);
});
