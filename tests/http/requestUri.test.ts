import type { Request } from 'express';
import fc from 'fast-check';
import { compileTrust, resolveRequestUri } from '../../src/http/RequestUri';

function fakeRequest(host: string, encrypted: boolean, url = '/a?b=1'): Request {
  return { socket: { remoteAddress: '10.0.0.9', encrypted, localAddress: '127.0.0.1', localPort: 8000 }, headers: { host }, url, baseUrl: '' } as unknown as Request;
}

function outcome(req: Request, trust = compileTrust([])): unknown {
  try {
    return resolveRequestUri(req, trust);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const hostArb = fc.oneof(
  fc.constantFrom('example.com', 'EXAMPLE.com:8080', 'example.com:443', 'example.com:80', '[::1]:3000', 'bad_host!', 'a b', ''),
  fc.tuple(fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }))).map(([d, p]) => (p === null ? d : `${d}:${p}`)),
  fc.string({ maxLength: 20 }),
);

describe('resolveRequestUri(req, trust)', () => {
  test('the same Host gives the same URI every time, over http and https, remembered or not (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(hostArb, fc.boolean()), { minLength: 1, maxLength: 400 }), (requests) => {
      const first = requests.map(([h, tls]) => outcome(fakeRequest(h, tls)));
      const again = requests.map(([h, tls]) => outcome(fakeRequest(h, tls)));
      expect(again).toEqual(first);
    }), { numRuns: 50 });
  });

  test('the default port depends on the scheme: the remembered authority is per scheme', () => {
    expect((outcome(fakeRequest('example.com:443', false)) as { schemeAndHttpHost: string }).schemeAndHttpHost).toBe('http://example.com:443');
    expect((outcome(fakeRequest('example.com:443', true)) as { schemeAndHttpHost: string }).schemeAndHttpHost).toBe('https://example.com');
  });

  test('an invalid Host throws every time, not only the first', () => {
    expect(outcome(fakeRequest('bad_host!', false))).toEqual({ error: 'Invalid Host "bad_host!".' });
    expect(outcome(fakeRequest('bad_host!', false))).toEqual({ error: 'Invalid Host "bad_host!".' });
  });

  test('a trusted proxy\'s X-Forwarded-Host wins over a Host seen before', () => {
    const trust = compileTrust(['10.0.0.0/8']);
    outcome(fakeRequest('example.com', false));
    const req = fakeRequest('example.com', false);
    req.headers['x-forwarded-host'] = 'public.example';
    expect((outcome(req, trust) as { host: string }).host).toBe('public.example');
  });
});
