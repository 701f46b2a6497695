import express, { type RequestHandler } from 'express';
import fc from 'fast-check';
import helmet, { type HelmetOptions } from 'helmet';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { securityHeaders } from '../../src/http/securityHeaders';
import { createKernel } from '../../src';
import { Route, RouteCollection } from '../../src/routing';

/** The header block of a response as it came over the wire (`name: value` lines, in order), Date left out. */
async function rawHeaderLines(app: http.RequestListener, method: string, path: string): Promise<string[]> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string[]>((resolve, reject) => {
      http.request({ port, method, path, host: '127.0.0.1', agent: false }, (res) => {
        res.resume();
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve(lines.filter((l) => !l.startsWith('Date: ')));
      }).on('error', reject).end();
    });
  } finally {
    server.close();
  }
}

/** The response headers an app with `layer` in front of one JSON route sends (Date and ETag left out). */
async function headersBehind(layer: RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.use(layer);
  app.get('/', (_req, res) => { res.json({ ok: true }); });
  const res = await request(app).get('/');
  const { date: _date, etag: _etag, ...rest } = res.headers;
  return rest;
}

const optionsArb: fc.Arbitrary<HelmetOptions> = fc.record({
  contentSecurityPolicy: fc.constantFrom<HelmetOptions['contentSecurityPolicy']>(undefined, false, { directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'] } }, { useDefaults: false, directives: { defaultSrc: ["'none'"] } }),
  strictTransportSecurity: fc.constantFrom<HelmetOptions['strictTransportSecurity']>(undefined, false, { maxAge: 60, preload: true }),
  xFrameOptions: fc.constantFrom<HelmetOptions['xFrameOptions']>(undefined, false, { action: 'deny' }),
  referrerPolicy: fc.constantFrom<HelmetOptions['referrerPolicy']>(undefined, { policy: ['origin', 'unsafe-url'] }),
  crossOriginEmbedderPolicy: fc.constantFrom<HelmetOptions['crossOriginEmbedderPolicy']>(undefined, true, { policy: 'credentialless' }),
  xPoweredBy: fc.constantFrom<HelmetOptions['xPoweredBy']>(undefined, false),
}, { requiredKeys: [] });

describe('securityHeaders(options)', () => {
  test('sends exactly the headers helmet sends, for any mix of options (property)', async () => {
    await fc.assert(fc.asyncProperty(optionsArb, async (options) => {
      expect(await headersBehind(securityHeaders(options))).toEqual(await headersBehind(helmet(options)));
    }), { numRuns: 40 });
  });

  test('a kernel\'s 404, 405 and 200 carry, byte for byte and in order, the header lines it sends with helmet itself',
    async () => {
      const routes = (): RouteCollection => {
        const r = new RouteCollection();
        r.add('plain', new Route('/plain', { methods: ['GET'], controller: (_req, res) => { res.type('text/plain').send('plain'); } }));
        return r;
      };
      const options: HelmetOptions = { strictTransportSecurity: { maxAge: 60 }, referrerPolicy: { policy: ['origin', 'unsafe-url'] } };
      const ours = createKernel({ routes: routes(), securityHeaders: options });
      const helmets = createKernel({ routes: routes(), securityHeaders: false, layers: { 'security-headers': [helmet(options)] } });
      for (const [method, path] of [['GET', '/nope'], ['POST', '/plain'], ['GET', '/plain']]) {
        const lines = await rawHeaderLines(ours, method, path);
        expect(lines).toEqual(await rawHeaderLines(helmets, method, path));
        expect(lines).toContain('Strict-Transport-Security: max-age=60; includeSubDomains');
      }
    });

  test('removes X-Powered-By as helmet does', async () => {
    const headers = await headersBehind(securityHeaders());
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  test('a CSP directive that is a function still runs per request (fresh nonces)', async () => {
    let n = 0;
    const options: HelmetOptions = { contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => `'nonce-${++n}'`] } } };
    const layer = securityHeaders(options);
    const first = await headersBehind(layer);
    const second = await headersBehind(layer);
    expect(first['content-security-policy']).toContain("'nonce-1'");
    expect(second['content-security-policy']).toContain("'nonce-2'");
  });

  test('bad options fail at construction, with helmet\'s message', () => {
    expect(() => securityHeaders({ strictTransportSecurity: { maxAge: -1 } })).toThrow(/maxAge/);
  });
});
