import fc from 'fast-check';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { compileOrigins, corsLayer, isOriginAllowed } from '../../src/cors';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Serialised origins: scheme, lowercase host, optional port. */
const origin = fc.record({
  scheme: fc.constantFrom('http', 'https'),
  host: fc.domain().map((d) => d.toLowerCase()),
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
}).map(({ scheme, host, port }) => `${scheme}://${host}${port === undefined ? '' : `:${port}`}`);

/** Hostile `Origin` values: any text, and listed origins with something stuck before or after. */
const hostile = (listed: string[]) => fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  origin,
  fc.tuple(fc.constantFrom(...listed), fc.constantFrom('.evil.test', '/', ' ', '\n', ':443', '@evil.test', '%00', '\u0000', 'x')).map(([o, s]) => o + s),
  fc.tuple(fc.constantFrom('x', ' ', 'https://evil.test/', 'null'), fc.constantFrom(...listed)).map(([p, o]) => p + o),
  fc.constantFrom(...listed).map((o) => o.toUpperCase()),
);

describe('isOriginAllowed(origin, list)', () => {
  it('never throws and allows exactly the listed strings', () => {
    const listedAndCandidate = fc.uniqueArray(origin, { minLength: 1, maxLength: 6 })
      .chain((listed) => fc.tuple(fc.constant(listed), hostile(listed)));
    fc.assert(fc.property(listedAndCandidate, ([listed, candidate]) => {
      const list = compileOrigins(listed, 'origins');
      expect(isOriginAllowed(candidate, list)).toBe(listed.includes(candidate));
    }), { numRuns: 500 });
  });

  it('never throws and allows only what an anchored pattern fully matches', () => {
    // an independent oracle for `^https://[a-z0-9-]+\.<domain>$` and for escaped literals
    const subdomainOf = (domain: string, o: string): boolean => {
      const m = /^https:\/\/([^/]*)$/.exec(o);
      return m !== null && m[1].endsWith(`.${domain}`) && /^[a-z0-9-]+$/.test(m[1].slice(0, -domain.length - 1));
    };
    const setting = fc.tuple(fc.domain().map((d) => d.toLowerCase()), fc.uniqueArray(origin, { minLength: 1, maxLength: 3 }), fc.constantFrom('', 'g', 'y', 'gy'));
    const withCandidates = setting.chain(([domain, literals, flags]) => fc.tuple(fc.constant(domain), fc.constant(literals), fc.constant(flags), fc.array(hostile([...literals, `https://www.${domain}`]), { minLength: 1, maxLength: 20 })));
    fc.assert(fc.property(withCandidates, ([domain, literals, flags, candidates]) => {
      const patterns = [new RegExp(`^https:\\/\\/[a-z0-9-]+\\.${escape(domain)}$`, flags), ...literals.map((l) => new RegExp(`^${escape(l)}$`, flags))];
      const list = compileOrigins(patterns, 'origins');
      for (const candidate of candidates) {
        const expected = literals.includes(candidate) || subdomainOf(domain, candidate);
        // twice: `g`/`y` flags must not make the answer depend on the previous call
        expect(isOriginAllowed(candidate, list)).toBe(expected);
        expect(isOriginAllowed(candidate, list)).toBe(expected);
      }
    }), { numRuns: 200 });
  });

  it('never throws on values that are not strings', () => {
    const list = compileOrigins(['https://a.test', /^https:\/\/b\.test$/], 'origins');
    fc.assert(fc.property(fc.anything(), (v) => {
      expect(isOriginAllowed(v as string, list)).toBe(false);
    }));
  });
});

describe('corsLayer(options) with hostile Origin headers', () => {
  const routes = new RouteCollection();
  routes.add('api', new Route('/api', { methods: ['GET'], controller: (_req, res) => { res.json({}); } }));
  const listed = ['https://app.example.com', 'http://localhost:3000'];
  const app = createKernel({ routes, layers: { cors: corsLayer({ paths: { '^/api': { origins: [...listed, /^https:\/\/[a-z]+\.example\.org$/] } } }) } });
  /** Characters a client can put in a header value. */
  const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 60 }).filter((s) => s.trim() === s && s !== '');

  it('grants CORS headers only to listed or pattern-matched origins', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(headerValue, hostile(listed).filter((s) => /^[\x21-\x7e][\x20-\x7e]*$/.test(s) && s.trim() === s)), async (value) => {
      const res = await request(app).options('/api').set('Origin', value).set('Access-Control-Request-Method', 'GET');
      const allowed = listed.includes(value) || /^https:\/\/[a-z]+\.example\.org$/.test(value);
      // allowed: answered here; disallowed: on to routing, which takes no OPTIONS (405)
      expect(res.status).toBe(allowed ? 204 : 405);
      expect(res.headers['access-control-allow-origin']).toBe(allowed ? value : undefined);
    }), { numRuns: 60 });
  });
});
