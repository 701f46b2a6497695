import express, { type RequestHandler } from 'express';
import fc from 'fast-check';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from '../../src/http/securityHeaders';

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
