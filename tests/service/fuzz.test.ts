import * as http from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { createDemoKernel, DemoKernel } from '../../src/demo/app';
import { listen, Listening } from '../helpers/http';
import { clientRequest, socketRequest, WireRequest, WireResponse, WireTimeout } from '../helpers/wire';
import { scaled } from '../helpers/timeScale';

/**
 * Hostile input against the demo service over real HTTP on 127.0.0.1: fuzzed methods, paths
 * (the routing table's own, mutated), query strings, headers and bodies, half through node's
 * keep-alive client and half as raw bytes on a socket (odd methods, invalid header bytes), to
 * kernels with debug on (profiler, in-memory profile store) and off, with and without trusted
 * proxies. Three promises hold for every answer: no 5xx but the `/boom` route's own, no answer
 * slower than 1 s, and no echo of a marker (`<x-fuzz-N>`, `"><script>`) in a `text/html` body,
 * the profiler's pages for the fuzzed request included.
 *
 * Runs: `FUZZ_RUNS`, else 10,000 with `CI=true`, else 1,000. `FUZZ_SEED` replays a failure
 * (fast-check prints the seed and the shrunk counterexample).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI === 'true' ? 10_000 : 1_000));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** 1 s on a quiet machine, stretched by the load (../helpers/timeScale). */
const DEADLINE_MS = scaled(1000);
/** A generous socket timeout: a slower answer fails on the 1 s assertion with its time, not as a hang. */
const TIMEOUT_MS = scaled(5000);

/** Any marker in an HTML body is an unescaped echo, whichever run sent it (profile lists show old ones). */
const ECHO = /<x-fuzz-\d+>|"><script>fuzz\d+/;
const markers = (n: number): string[] => [`<x-fuzz-${n}>`, `"><script>fuzz${n}</script>`];

const basic = (credentials: string): string => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

/** A marker placeholder in generated text: `@M@`, replaced per run by one of the run's markers. */
const M = '@M@';

// ---------------------------------------------------------------- arbitraries

const method = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  },
  // node's parser knows these (the kernel sees them); CONNECT is answered by node's `connect` event
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'CONNECT', 'PURGE', 'PROPFIND', 'M-SEARCH', 'LINK', 'QUERY') },
  // node's parser answers 400 to these itself: lowercase and unknown tokens
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'Put', 'delete', 'options', 'FOO') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/) },
);

/** Text that often carries a marker: what an attacker would try to get reflected. */
const hostile = fc.oneof(
  fc.constant(M),
  fc.string({ maxLength: 12 }).map((s) => `${s}${M}${s}`),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '%', '%zz', '%c0%af', '\u0000', '../..', '{{7*7}}', '${x}', '\'"`', 'é', '🦆', '\u202e'),
);

function encodeSome(s: string, every: number): string {
  // the leading slash stays: a target without one is a 400 from node's parser, not the kernel's
  return [...s].map((c, i) => (i > 0 && i % every === 0 ? encodeURIComponent(c) : c)).join('');
}

/** Ways of spoiling a valid path. */
const mutation: fc.Arbitrary<(p: string) => string> = fc.oneof(
  { weight: 4, arbitrary: fc.constant((p: string) => p) },
  fc.constant((p: string) => (p.endsWith('/') ? p.slice(0, -1) : `${p}/`)),
  fc.constant((p: string) => p.replace('/', '//')),
  fc.constant((p: string) => `${p}//`),
  fc.constant((p: string) => `/x/..${p}`),
  fc.constant((p: string) => `/.${p}`),
  fc.constant((p: string) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)),
  fc.constant((p: string) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)),
  fc.constant((p: string) => `${p}%zz`),
  fc.constant((p: string) => `${p}%`),
  fc.constant((p: string) => `${p}%c0%af`),
  fc.constant((p: string) => `${p}%2f..%2f`),
  fc.constant((p: string) => `${p}%00`),
  fc.constant((p: string) => p.toUpperCase()),
  fc.constantFrom('en', 'fr', 'de', 'xx', 'EN', 'fr_FR').map((l) => (p: string) => `/${l}${p}`),
  fc.integer({ min: 256, max: 20_000 }).map((n) => (p: string) => `${p}/${'a'.repeat(n)}`),
  { weight: 2, arbitrary: hostile.map((s) => (p: string) => `${p}/${s}`) },
  hostile.map((s) => (p: string) => `${p}/${encodeURIComponent(s)}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((s) => (p: string) => `${p}${s}`),
  fc.integer({ min: 2, max: 4 }).map((n) => (p: string) => encodeSome(p, n)),
);

const queryPair = fc.tuple(
  fc.oneof(
    fc.constantFrom('panel', 'token', 'limit', 'ip', 'url', 'method', 'status_code', 'start', 'end', 'level', 'type',
      '_locale', 'locale', 'tz', 'a[b][c]', '__proto__[x]', 'constructor[prototype][x]', 'a[]', '%zz', 'key', 'code'),
    hostile,
  ),
  fc.oneof(hostile, fc.constantFrom('request', 'exception', 'router', 'logger', 'time', 'security', '10', '-1', '1e309',
    '99999999999999999999', 'Europe/Paris', 'error')),
);

const query = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(`?q=${M}`, `?${M}`, `?url=${encodeURIComponent(M)}`, `?panel=${M}&token=${M}`),
  },
  {
    weight: 3,
    arbitrary: fc.array(queryPair, { minLength: 1, maxLength: 4 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
  fc.array(queryPair, { minLength: 1, maxLength: 4 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
  fc.constantFrom('?', '?&&', '?a', '?a=1&a=2', `?${'a[b]'.repeat(40)}=1`, `?${'x=1&'.repeat(500)}`),
);

/** Absent `absent` times in `absent + 1`, else `arb`. */
const sometimes = <T>(arb: fc.Arbitrary<T>, absent = 3): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** One of the usual values or (less often) hostile text, absent 3 times in 4. */
const headerValue = (...known: string[]): fc.Arbitrary<string | undefined> => sometimes(fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...known) },
  { weight: 1, arbitrary: hostile },
));

/**
 * The same, absent 7 times in 8: for headers whose bad values the kernel answers 400 to before
 * routing (Host, Time-Zone, method override, forwarded headers), so that most requests go further.
 */
const rareHeaderValue = (...known: string[]): fc.Arbitrary<string | undefined> => sometimes(fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...known) },
  { weight: 1, arbitrary: hostile },
), 7);

/** Optional headers; `undefined` entries are left out. */
const headers = fc.record({
  Accept: headerValue('text/html', 'application/json', '*/*', 'application/problem+json',
    'text/html;q=0.1, application/json', 'image/png', 'text/*'),
  'Accept-Language': headerValue('fr', 'de-DE,de;q=0.9', 'en-US;q=0.5', '*', 'xx', 'fr;q=abc', 'zh-Hant-TW'),
  'Content-Type': headerValue('application/json', 'application/x-www-form-urlencoded', 'text/plain',
    'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/merge-patch+json',
    'application/xml'),
  'Time-Zone': rareHeaderValue('Europe/Paris', 'America/New_York', 'UTC', 'Mars/Olympus', '+02:00', 'Etc/GMT+99'),
  Origin: headerValue('http://localhost:3000', 'http://127.0.0.1', 'https://evil.example', 'null'),
  Referer: headerValue('http://127.0.0.1/', 'https://evil.example/?q=x'),
  Authorization: sometimes(fc.oneof(
    fc.constantFrom(basic('admin:admin'), basic('user:user'), basic('admin:wrong'), basic('user'), 'Basic', 'Basic !!!',
      'Bearer abc', 'Basic YWRtaW46YWRtaW4=====', basic(':')),
    hostile.map((s) => basic(s)),
    fc.tuple(hostile, hostile).map(([u, p]) => basic(`${u}:${p}`)),
  )),
  Cookie: headerValue('EKSESSID=s%3Aabc.def', 'EKSESSID=', 'EKSESSID=%zz', 'a=b; a=c', '=;=;'),
  'X-Forwarded-For': rareHeaderValue('203.0.113.9', '10.0.0.1, 203.0.113.9', 'unknown', '::1', '999.1.1.1'),
  'X-Forwarded-Proto': rareHeaderValue('https', 'http', 'gopher', 'HTTPS'),
  // `.evil.com`, `@evil.com` and port -1 are issue 14's item 7 (another change); they answer 2xx/3xx/4xx
  'X-Forwarded-Host': rareHeaderValue('example.com', 'example.com:8443', '.evil.com', 'a..b'),
  'X-Forwarded-Port': rareHeaderValue('443', '8080', '-1', '0', '70000', 'x'),
  'X-Forwarded-Prefix': rareHeaderValue('/prefix', '/a/b/', '@evil.com', '//evil.com', '/%zz'),
  'X-HTTP-Method-Override': rareHeaderValue('PUT', 'DELETE', 'patch', 'G E T', 'CONNECT'),
  'User-Agent': headerValue('curl/8.0', 'Mozilla/5.0'),
  'X-Requested-With': headerValue('XMLHttpRequest'),
  Host: rareHeaderValue('localhost', 'example.com:8000', '[::1]:8000', 'a..b', 'evil.com:99999', '', 'é.example'),
});

/** Deep `[[[...]]]` or `{"a":{"a":...}}` nesting. */
const nested = fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([depth, array]) =>
  array ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.record({ title: hostile, featured: fc.boolean() }, { requiredKeys: [] })
      .map((o) => JSON.stringify(o)),
  },
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constantFrom('{"title":', '{', '"', 'null', '[]', '1e999999', '123456789012345678901234567890', '{"title":1e400}',
    '{"__proto__":{"featured":true}}', '{"constructor":{"prototype":{"x":1}}}', `{"title":"${M}"}`, '\u0000\uffff'),
  nested,
  hostile.map((s) => `title=${s}&featured=1`),
  hostile,
);

/** What node's HTTP parser answers 400 to by itself (llhttp), in a request-target and in a header value. */
const PARSER_REFUSES_IN_TARGET = /[^\x21-\x7e]/gu;
// eslint-disable-next-line no-control-regex -- the control characters Node's parser refuses in a header value
const PARSER_REFUSES_IN_HEADER = /[\x00-\x08\x0a-\x1f\x7f]/g;

function clean(text: string, refused: RegExp | null): string {
  if (refused === null) return text;
  if (refused === PARSER_REFUSES_IN_HEADER) return text.replace(refused, '');
  const percent = (c: string): string =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  return text.replace(refused, percent);
}

interface Spec {
  kernel: number;
  method: string;
  route: string;
  mutate: (p: string) => string;
  query: string;
  headers: Partial<Record<string, string>>;
  body: string | undefined;
  /** Send as raw bytes on a socket rather than through node's client. */
  raw: boolean;
  /**
   * Leave the bytes node's parser refuses (non-ASCII and spaces in the target, control characters
   * in header values) as they are: the server answers 400 before the kernel runs. Else they are
   * percent-encoded (target) or dropped (headers), so that most requests reach the kernel.
   */
  dirty: boolean;
  /** Which marker fills `@M@` placeholders; also which id the markers carry. */
  marker: number;
  /** With a debug kernel: also open this profiler page (`{token}`: this request's profile). */
  inspect: string | null;
}

// ---------------------------------------------------------------- the service

interface Sample { status: number; via: string; ms: number; html: boolean; method: string; target: string }

interface Service {
  name: string;
  kernel: DemoKernel;
  server: Listening;
  debug: boolean;
  /** Error messages logged with level >= error while the current request ran. */
  errors: string[];
}

function capturingLogger(into: () => string[]): pino.Logger {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        const entry = JSON.parse(line) as { level: number; err?: { message?: string }; msg?: string };
        if (entry.level >= 50) into().push(entry.err?.message ?? entry.msg ?? '');
      }
      done();
    },
  });
  return pino({ level: 'warn' }, stream);
}

/** The route paths of the table, `{placeholders}` left in (filled per run). */
function routePaths(kernel: DemoKernel): string[] {
  return [...new Set(kernel.routeCollection.all().map(([, route]) => route.path))];
}

function fill(template: string, pick: number, tokens: string[]): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === '_locale') return ['en', 'fr', 'de', 'xx'][pick % 4];
    if (name === 'id') return ['1', '2', '999', '0', '-1', 'abc', '1e3', '١'][pick % 8];
    return tokens.length > 0 && pick % 5 !== 0 ? tokens[pick % tokens.length] : ['empty', 'latest', 'nope'][pick % 3];
  });
}

describe('the demo service under fuzzed requests (fast-check, real HTTP on 127.0.0.1)', () => {
  let dir: string;
  const services: Service[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let current: string[] = [];
  const stats: Sample[] = [];
  /** Profile tokens seen so far (debug kernels), so that `{token}` paths often name a real profile. */
  const tokens: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-fuzz-'));
    const variants: Array<[string, boolean, string[]]> = [
      ['debug', true, []], ['prod', false, []],
      ['debug+proxies', true, ['127.0.0.1']], ['prod+proxies', false, ['127.0.0.1']],
    ];
    for (const [name, debug, trustedProxies] of variants) {
      const kernel = createDemoKernel({
        debug, trustedProxies, sqlitePath: path.join(dir, `${name}.sqlite`), logger: capturingLogger(() => current),
      });
      services.push({ name, kernel, server: await listen(kernel), debug, errors: [] });
    }
  });

  afterAll(async () => {
    if (process.env.FUZZ_STATS !== undefined) {
      // FUZZ_STATS=1: what the runs reached (statuses, transports) and the slowest answers
      const count = (key: (x: Sample) => string): Record<string, number> =>
        stats.reduce<Record<string, number>>((a, x) => ({ ...a, [key(x)]: (a[key(x)] ?? 0) + 1 }), {});
      const slow = [...stats].sort((a, b) => b.ms - a.ms).slice(0, 5)
        .map((x) => `${Math.round(x.ms)} ms ${x.status} ${x.target.slice(0, 100)}`);
      console.log(JSON.stringify({
        requests: stats.length, status: count((x) => String(x.status)), via: count((x) => x.via),
        html: count((x) => String(x.html)), slow,
        closedWithoutAnswer: count((x) => (x.status === 0 ? x.method : 'answered')),
      }));
    }
    agent.destroy();
    for (const s of services) { await s.server.close(); await s.kernel.close(); }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function send(service: Service, req: WireRequest, raw: boolean): Promise<WireResponse> {
    if (!raw && req.method.toUpperCase() !== 'CONNECT') {
      try {
        return await clientRequest(service.server, agent, req, TIMEOUT_MS);
      } catch (e) {
        // node's client refused the method, target or a header, or the server closed the socket
        if (e instanceof WireTimeout) throw e;
      }
    }
    return socketRequest(service.server, req, TIMEOUT_MS);
  }

  /** Sends and checks the three promises; returns the answer. */
  async function check(service: Service, req: WireRequest, raw: boolean, boomAllowed: boolean): Promise<WireResponse> {
    current = [];
    const started = performance.now();
    const res = await send(service, req, raw);
    const ms = performance.now() - started;
    const html = /text\/html/i.test(res.headers['content-type'] ?? '');
    stats.push({ status: res.status, via: res.via, ms, html, method: req.method, target: req.target });
    const where = `${service.name} ${req.method} ${req.target} via ${res.via} → ${res.status}`;
    if (ms > DEADLINE_MS) throw new Error(`answered in ${Math.round(ms)} ms (over ${DEADLINE_MS}): ${where}`);
    if (res.status >= 500) {
      // only the /boom route may fail, and then with its own error and nothing else
      const fromBoom = boomAllowed && res.status === 500 && current.length > 0 && current.every((m) => m === 'Kaboom');
      if (!fromBoom) throw new Error(`${where}; logged: ${JSON.stringify(current)}; body: ${res.body.slice(0, 300)}`);
    }
    if (html) {
      const echo = ECHO.exec(res.body);
      if (echo !== null) {
        const at = echo.index;
        const around = res.body.slice(Math.max(0, at - 200), at + 100);
        throw new Error(`unescaped echo of ${JSON.stringify(echo[0])} in HTML: ${where}: …${around}…`);
      }
    }
    return res;
  }

  test(`${RUNS} requests: no 5xx but /boom's, none over 1 s, no unescaped echo in HTML`, async () => {
    const paths = routePaths(services[0].kernel);
    expect(paths).toEqual(
      expect.arrayContaining(['/boom', '/api/books/{id}.{_format}', '/{_locale}/about', '/_profiler/{token}', '/_wdt/{token}']),
    );
    const spec: fc.Arbitrary<Spec> = fc.record({
      kernel: fc.nat({ max: services.length - 1 }),
      method,
      route: fc.tuple(fc.constantFrom(...paths), fc.nat()).map(([p, n]) => `${p}#${n}`),
      mutate: mutation,
      query,
      headers,
      body,
      raw: fc.boolean(),
      dirty: fc.nat({ max: 7 }).map((n) => n === 0),
      marker: fc.nat({ max: 1 }),
      inspect: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.oneof(
        { weight: 3, arbitrary: fc.constant('/_profiler/{token}?panel=request') },
        fc.constantFrom('exception', 'router', 'logger', 'time', 'security', 'cors', 'session', 'config')
          .map((panel) => `/_profiler/{token}?panel=${panel}`),
        fc.constantFrom('/_wdt/{token}', '/_profiler/{token}/router', '/_profiler/{token}/exception',
          '/_profiler/empty/search/results?limit=10', '/_profiler/{token}/compare/{token}'),
      ) }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(spec, async (s) => {
        run += 1;
        const marker = markers(run)[s.marker];
        const sub = (v: string): string =>
          v.split(M).join(marker).split(encodeURIComponent(M)).join(encodeURIComponent(marker));
        const service = services[s.kernel];
        const [template, pick] = s.route.split('#');
        const routePath = fill(template, Number(pick), tokens);
        const target = clean(sub(s.mutate(routePath) + s.query), s.dirty ? null : PARSER_REFUSES_IN_TARGET);
        const headerList: Array<[string, string]> = Object.entries(s.headers)
          .filter((e): e is [string, string] => e[1] !== undefined)
          .map(([n, v]) => [n, clean(sub(v), s.dirty ? null : PARSER_REFUSES_IN_HEADER)]);
        const req: WireRequest = {
          method: s.method, target, headers: headerList, body: s.body === undefined ? undefined : sub(s.body),
        };
        const boomAllowed = template === '/boom';
        const res = await check(service, req, s.raw, boomAllowed);
        const token = res.headers['x-debug-token'];
        if (service.debug && token !== undefined && /^[\w-]+$/.test(token)) {
          if (tokens.length < 50) tokens.push(token); else tokens[run % 50] = token;
          // the profiler shows the request's path, query, headers and body: all escaped
          if (s.inspect !== null) {
            const page = s.inspect.split('{token}').join(token);
            await check(service, { method: 'GET', target: page, headers: [] }, false, false);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, Math.max(120_000, RUNS * 50));
});
