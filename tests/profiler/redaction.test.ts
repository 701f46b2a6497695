import request from 'supertest';
import type { Kernel } from '../../src/kernel/createKernel';
import fc from 'fast-check';
import { passesLuhn, redact, redactBody, redactHeaders, redactText, redactUrl, REDACTED } from '../../src/profiler/redaction';
import { APP_SECRET, layeredKernel, pageUrls, tokenOf } from './kernel';

/** Every secret the requests below send; none may reach a profile or a page. */
const SECRETS = {
  basicPassword: 'Basic-Pa55word-xyz',
  bearer: 'bearer-tok-7f3a9c1e5b',
  proxy: 'proxy-cred-4d2e8b',
  cookie: 'cookie-val-91c2d7e4',
  bodyPassword: 'body-Passw0rd-e5f6',
  bodyApiKey: 'nested-api-key-0a1b',
  query: 'query-tok-3c4d5e',
  referer: 'referer-tok-6f7a8b',
  redirect: 'redirect-tok-9c0d1e',
  apiKeyHeader: 'hdr-api-key-2f3a4b',
  logged: 'hunter2-in-log',
  appSecret: APP_SECRET,
};

let kernel: Kernel;
const tokens: string[] = [];
let sessionId: string | undefined;

beforeAll(async () => {
  kernel = layeredKernel();
  const basic = Buffer.from(`admin:${SECRETS.basicPassword}`).toString('base64');
  SECRETS.basicPassword = basic; // what travels is the base64; the plaintext is checked too below
  const sends = [
    request(kernel).get('/api/books').set('Authorization', `Basic ${basic}`),
    request(kernel).get('/api/books').set('Authorization', `Bearer ${SECRETS.bearer}`).set('Proxy-Authorization', `Basic ${SECRETS.proxy}`),
    request(kernel).get('/api/books').set('Cookie', `sid=${SECRETS.cookie}; theme=dark`).set('X-Api-Key', SECRETS.apiKeyHeader),
    request(kernel).post('/t/echo').send({ username: 'alice', password: SECRETS.bodyPassword, nested: { apiKey: SECRETS.bodyApiKey } }),
    request(kernel).get(`/api/books?token=${SECRETS.query}&page=2`),
    request(kernel).get('/nope').set('Referer', `http://app.example/list?access_token=${SECRETS.referer}`),
    request(kernel).get(`/hello?token=${SECRETS.redirect}`).redirects(0),
    request(kernel).get('/t/logs'),
    // Basic credentials keep no session: a page that writes to it starts the one whose ID is a secret
    request(kernel).get('/t/session').auth('admin', 'admin'),
    request(kernel).get('/boom'),
  ];
  for (const s of sends) {
    const res = await s;
    tokens.push(tokenOf(res));
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => !c.startsWith('sid=') && c.includes('='));
    // express-session sends s:<id>.<signature>; the bare ID is the secret
    if (cookie !== undefined) sessionId = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'))).replace(/^s:/, '').split('.')[0];
  }
});

afterAll(async () => {
  await kernel.close();
});

function secretsIn(text: string): string[] {
  const found = Object.entries(SECRETS).filter(([, v]) => text.includes(v)).map(([k]) => k);
  if (text.includes('Basic-Pa55word-xyz')) found.push('basicPlaintext');
  if (sessionId !== undefined && text.includes(sessionId)) found.push('sessionId');
  return found;
}

describe('redaction at collection time', () => {
  test('the admin login started a session, whose ID is one of the secrets', () => {
    expect(sessionId).toMatch(/^[\w-]{20,}$/);
  });

  test('no stored profile holds any secret', async () => {
    for (const token of tokens) {
      const profile = await kernel.profiler?.storage.read(token);
      expect(profile).not.toBeNull();
      expect({ token, found: secretsIn(JSON.stringify(profile)) }).toEqual({ token, found: [] });
    }
  });

  test('no page shows any secret: every panel, the toolbar, the sub-pages, search, API and compare', async () => {
    const urls = [...pageUrls(tokens), '/_profiler/api/profiles?limit=50', ...tokens.map((t) => `/_profiler/api/profiles/${t}`)];
    for (const url of urls) {
      const res = await request(kernel).get(url);
      expect(res.status).toBe(200);
      expect({ url, found: secretsIn(res.text) }).toEqual({ url, found: [] });
    }
  });

  test('what is redacted keeps its name: headers, cookies, body and query fields', async () => {
    const headers = (await kernel.profiler?.storage.read(tokens[1]))?.collectors.request as {
      requestHeaders: Record<string, string>;
    };
    expect(headers.requestHeaders.authorization).toBe(REDACTED);
    expect(headers.requestHeaders['proxy-authorization']).toBe(REDACTED);
    const cookies = (await kernel.profiler?.storage.read(tokens[2]))?.collectors.request as {
      cookies: Record<string, string>; requestHeaders: Record<string, string>;
    };
    expect(cookies.cookies).toEqual({ sid: REDACTED, theme: REDACTED });
    expect(cookies.requestHeaders['x-api-key']).toBe(REDACTED);
    const body = (await kernel.profiler?.storage.read(tokens[3]))?.collectors.request as { body: unknown };
    expect(body.body).toEqual({ username: 'alice', password: REDACTED, nested: { apiKey: REDACTED } });
    const query = await kernel.profiler?.storage.read(tokens[4]);
    expect(query?.url).toMatch(/\/api\/books\?token=\*{6}&page=2$/);
    expect((query?.collectors.request as { query: unknown }).query).toEqual({ token: REDACTED, page: '2' });
    const redirect = await kernel.profiler?.storage.read(tokens[6]);
    expect((redirect?.collectors.router as { redirect: string }).redirect).toMatch(/\/hello\/\?token=\*{6}$/);
    const session = await kernel.profiler?.storage.read(tokens[8]);
    expect((session?.collectors.request as { responseCookies: string[] }).responseCookies[0]).toMatch(/^[\w.-]+=\*{6}; Path=\//);
  });

  test('a Referer\'s secret query value is redacted in the 404 message too', async () => {
    const profile = await kernel.profiler?.storage.read(tokens[5]);
    expect(profile?.exception?.[0].message).toBe(`No route found for "GET ${profile?.url}" (from "http://app.example/list?access_token=******")`);
  });
});

describe('redact(value)', () => {
  test('replaces secret-looking fields at any depth and keeps the rest', () => {
    expect(redact({ user: 'a', password: 'x', deep: [{ client_secret: 'y', ok: 1 }], sessionId: 's', csrf_token: 't', author: 'Herbert' }))
      .toEqual({ user: 'a', password: REDACTED, deep: [{ client_secret: REDACTED, ok: 1 }], sessionId: REDACTED, csrf_token: REDACTED, author: 'Herbert' });
  });

  test('keeps booleans under secret-looking names (a flag holds no secret), redacts every other value there', () => {
    expect(redact({ csrfProtection: true, requireToken: false, secret: 's', token: 0, password: null, apiKey: ['k'] }))
      .toEqual({
        csrfProtection: true, requireToken: false,
        secret: REDACTED, token: REDACTED, password: REDACTED, apiKey: REDACTED,
      });
  });

  test('redacts credential-looking values whatever their name, and makes the rest JSON-safe', () => {
    expect(redact({ a: 'Bearer abc.def', b: 'redis://u:pw@host:6379', c: 'eyJhbGciOi.eyJzdWIiOi.sig', f: function named() {}, u: undefined, n: 10n }))
      .toEqual({ a: REDACTED, b: REDACTED, c: REDACTED, f: '[function named]', u: null, n: '10' });
  });
});

describe('redactUrl(url) and redactText(text)', () => {
  test.each([
    ['http://h/cb?token=abc&x=1', 'http://h/cb?token=******&x=1'],
    ['/cb?x=1&api_key=k#frag', '/cb?x=1&api_key=******#frag'],
    ['/cb?pass%77ord=k', '/cb?pass%77ord=******'],
    ['https://user:pw@h/p', 'https://user:******@h/p'],
    ['/plain/path', '/plain/path'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  test('redacts name=value pairs inside free text', () => {
    expect(redactText('No route found for "GET http://h/x" (from "http://r/?token=abc&q=1")')).toBe('No route found for "GET http://h/x" (from "http://r/?token=******&q=1")');
    expect(redactText('password=hunter2 user=bob')).toBe('password=****** user=bob');
  });
});

describe('redactHeaders(headers) and redactBody(body)', () => {
  test('keeps Set-Cookie attributes and the profiler\'s own token headers', () => {
    expect(redactHeaders({ 'set-cookie': ['sid=abc; Path=/; HttpOnly', 'theme=dark'], 'x-debug-token': 'a1b2c3', 'x-csrf-token': 't', accept: 'text/html' }))
      .toEqual({ 'set-cookie': 'sid=******; Path=/; HttpOnly\ntheme=******', 'x-debug-token': 'a1b2c3', 'x-csrf-token': REDACTED, accept: 'text/html' });
  });

  test('reads string bodies as JSON or forms', () => {
    expect(redactBody('{"password":"x","a":1}')).toEqual({ password: REDACTED, a: 1 });
    expect(redactBody('user=a&password=x')).toBe('user=a&password=******');
    expect(redactBody(undefined)).toBeNull();
  });
});

describe('redaction of cards, identity numbers, keys, codes and URL passwords', () => {
  let k: Kernel;
  beforeAll(() => { k = layeredKernel({ profiler: { redactFields: ['iban'] } }); });
  afterAll(async () => { await k.close(); });
  const stored = async (res: request.Response): Promise<string> =>
    JSON.stringify(await k.profiler?.storage.read(tokenOf(res)));

  test('body fields credit_card, card_number, cvv, ssn, pin, creds and an extra redactFields name lose their values', async () => {
    const body = { credit_card: 'cc-secret-1', card_number: 'cn-secret-2', cvv: '987', ssn: '078-05-1120', pin: '4321', creds: 'creds-secret-3', iban: 'DE89370400440532013000', note: 'kept' };
    const res = await request(k).post('/t/echo').send(body);
    const profile = await k.profiler?.storage.read(tokenOf(res));
    expect((profile?.collectors.request as { body: unknown }).body).toEqual({
      credit_card: REDACTED, card_number: REDACTED, cvv: REDACTED, ssn: REDACTED, pin: REDACTED, creds: REDACTED, iban: REDACTED, note: 'kept',
    });
  });

  test('query parameters key and code, and a URL password in a query value, are redacted in the URL and the query', async () => {
    const next = encodeURIComponent('http://bob:url-pass-9f8e@internal.example/');
    const res = await request(k).get(`/api/books?key=key-secret-4&code=oauth-code-5&next=${next}&page=2`);
    const text = await stored(res);
    for (const secret of ['key-secret-4', 'oauth-code-5', 'url-pass-9f8e']) expect(text).not.toContain(secret);
    const profile = await k.profiler?.storage.read(tokenOf(res));
    expect((profile?.collectors.request as { query: unknown }).query).toEqual({ key: REDACTED, code: REDACTED, next: REDACTED, page: '2' });
  });

  test('a card number passing the Luhn check is redacted whatever its field name; other numbers are kept', async () => {
    const res = await request(k).post('/t/echo').send({ reference: '4111 1111 1111 1111', amount: 4111111111111112, n: 42 });
    const profile = await k.profiler?.storage.read(tokenOf(res));
    expect((profile?.collectors.request as { body: unknown }).body)
      .toEqual({ reference: REDACTED, amount: 4111111111111112, n: 42 });
  });

  test('a malformed JSON body never reaches the profile through the error message', async () => {
    const res = await request(k).post('/t/echo').set('Content-Type', 'application/json').send('{"password": "json-err-secret-6" oops');
    expect(res.status).toBe(400);
    expect(await stored(res)).not.toContain('json-err-secret-6');
    expect(decodeURIComponent(res.headers['x-debug-exception'])).toMatch(/^Malformed JSON body: not valid JSON at position \d+$/);
  });

  test('no generated secret survives into the stored profile JSON (property)', async () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{10,20}$/).map((s) => `zq${s}`);
    const cardDigits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 15, maxLength: 15 }).map((d) => {
      const body = [4, ...d];
      for (let check = 0; check < 10; check++) if (passesLuhn(body.join('') + check)) return body.join('') + check;
      throw new Error('unreachable');
    });
    const place = fc.oneof(
      fc.tuple(fc.constant('body' as const), fc.constantFrom(...BODY_NAMES), secret),
      fc.tuple(fc.constant('query' as const), fc.constantFrom('key', 'code', 'token', 'password', 'api_key'), secret),
      fc.tuple(fc.constant('url-password' as const), fc.constantFrom('next', 'callback', 'q'), secret),
      fc.tuple(fc.constant('bearer' as const), fc.constantFrom('x-forwarded-authorization', 'x-upstream', 'x-note'), secret),
      fc.tuple(fc.constant('card' as const), fc.constantFrom('ref', 'memo', 'q'), cardDigits),
    );
    await fc.assert(fc.asyncProperty(place, async ([where, name, value]) => {
      let res: request.Response;
      if (where === 'body') res = await request(k).post('/t/echo').send({ [name]: value, other: 'x' });
      else if (where === 'query') res = await request(k).get(`/api/books?${name}=${value}`);
      else if (where === 'url-password') res = await request(k).get(`/api/books?${name}=${encodeURIComponent(`https://u:${value}@h.example/p`)}`);
      else if (where === 'bearer') res = await request(k).get('/api/books').set(name, `Bearer ${value}`);
      else res = await request(k).post('/t/echo').send({ [name]: `paid with ${value.replace(/(\d{4})(?=\d)/g, '$1 ')}` });
      const text = await stored(res);
      expect({ where, name, leaked: text.includes(value) || text.includes(value.replace(/(\d{4})(?=\d)/g, '$1 ')) }).toEqual({ where, name, leaked: false });
    }), { numRuns: 60 });
  });
});

const BODY_NAMES = ['password', 'credit_card', 'card_number', 'cardNumber', 'cvv', 'cvc', 'ssn', 'pin', 'creds', 'key', 'apiKey', 'client_secret', 'otp'];

describe('passesLuhn(digits)', () => {
  test('accepts test card numbers and refuses a changed digit', () => {
    expect(['4111111111111111', '5500005555555559', '378282246310005'].map(passesLuhn)).toEqual([true, true, true]);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });
});

describe('redactHeaders: the pairs it remembers as clean', () => {
  test('a value seen clean under one name is still redacted under a secret one, before and after the cache fills', () => {
    const value = 'tok-1f2e3d4c5b6a7980';
    expect(redactHeaders({ 'x-trace': value })).toEqual({ 'x-trace': value });
    expect(redactHeaders({ authorization: value })).toEqual({ authorization: REDACTED });
    // more distinct clean pairs than the cache keeps (1,024): it empties and fills again
    for (let i = 0; i < 2100; i++) expect(redactHeaders({ 'x-request-id': `r-${i}` })['x-request-id']).toBe(`r-${i}`);
    expect(redactHeaders({ 'x-trace': value, authorization: value, cookie: `sid=${value}` }))
      .toEqual({ 'x-trace': value, authorization: REDACTED, cookie: REDACTED });
  });
});
