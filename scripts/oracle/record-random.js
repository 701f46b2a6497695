#!/usr/bin/env node
'use strict';
// Random differential recording against the running oracle. Generates seeded random requests, sends
// each with the request-target verbatim (node:http, no URL normalisation) and records the answers
// into tests/fixtures/oracle/random.json (same case format as cases.json).
//
//   node scripts/oracle/record-random.js --seed 20261122 --n 400                      # oracle on :8001
//   node scripts/oracle/record-random.js --variant trusted --port 8002 --seed 7 --n 40 # TRUSTED_PROXIES=127.0.0.1
//
// Cases of the recorded variant are replaced in the output file; cases of other variants are kept.

const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { decodeRawUrl, makeCase } = require('./lib');

function parseArgs(argv) {
  const opts = { seed: 1, n: undefined, variant: 'default', port: undefined, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--seed') opts.seed = Number(next());
    else if (a === '--n') opts.n = Number(next());
    else if (a === '--variant') opts.variant = next();
    else if (a === '--port') opts.port = Number(next());
    else if (a === '--out') opts.out = next();
    else if (/^\d+$/.test(a)) opts.seed = Number(a);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.seed)) throw new Error('--seed must be an integer');
  if (!['default', 'trusted'].includes(opts.variant)) throw new Error('--variant must be default or trusted');
  opts.n ??= opts.variant === 'trusted' ? 40 : 400;
  opts.port ??= opts.variant === 'trusted' ? 8002 : 8001;
  opts.out ??= path.join(__dirname, '..', '..', 'tests', 'fixtures', 'oracle', 'random.json');
  return opts;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const SEGMENTS = ['', 'api', 'books', '5', '42', 'abc', '-1', '%35', 'hello', 'plain', 'fr', 'en', 'de', 'xx',
  'FR', 'about', 'boom', 'nope', 'API', '%2F', '%20', '%C3%A9', '..', '.', 'index.php'];
const QUERIES = ['?a=1&b=%20', '?x=1', '?', '?_format=json', '?q=%C3%A9', '?a[]=1&a[]=2', '?page=2&x=%20y', '?=&&'];
// No leading/trailing whitespace: php -S keeps trailing blanks of a header value, node trims them.
const REFERERS = ['http://example.com/', 'http://example.com/from?q=1', 'he said "hi"', 'he said "hi" é',
  'https://exämple.org/é?x="y"', 'café', '"', '0', '', 'a  b'];
// Paths of the routing table; half of the requests start from one of these so that 301/405/200 show up.
const SKELETONS = [[''], ['api'], ['api', 'books'], ['api', 'books', '5'], ['api', 'books', '42'],
  ['api', 'books', 'abc'], ['api', 'books', '-1'], ['api', 'books', '%35'], ['hello'], ['plain'],
  ['fr', 'about'], ['en', 'about'], ['de', 'about'], ['xx', 'about'], ['FR', 'about'], ['boom']];

/** Decoded path as the router would see it (query and fragment removed, %XX decoded). */
function decodedPath(target) {
  const p = target.split(/[?#]/)[0];
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** Why a generated request is not recorded, or undefined. */
function exclusion(target) {
  if (/^\/+(admin|_profiler|_wdt)(\/|$)/.test(decodedPath(target).replace(/\/+/g, '/'))) {
    return 'under /admin, /_profiler or /_wdt';
  }
  // php -S derives SCRIPT_NAME from any "index.php" in the path (GET /abc/index.php is the home page,
  // GET /nope/index.php/api reports ".../public/index.php/pi"): a server artifact, not Symfony routing.
  // Only a leading /index.php (the front controller's real script name) is kept.
  const p = target.split(/[?#]/)[0];
  if (p.replace(/^\/index\.php(?=\/|$)/, '').includes('index.php')) return 'index.php past the first segment (php -S artifact)';
  return undefined;
}

function baseHeaders(port) {
  return { Host: `127.0.0.1:${port}`, 'User-Agent': 'express-kernel-oracle-recorder', Accept: '*/*' };
}

function generateDefault(rand, port) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const method = pick(METHODS);
  let segs = [];
  if (rand() < 0.5) {
    segs = [...pick(SKELETONS)];
    if (rand() < 0.25) segs[Math.floor(rand() * segs.length)] = pick(SEGMENTS);
    if (rand() < 0.1 && segs.length < 4) segs.push(pick(SEGMENTS));
    if (rand() < 0.1 && segs.length < 4) segs.unshift('index.php');
  } else {
    const count = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < count; i++) segs.push(pick(SEGMENTS));
  }
  let target = '/' + segs.join('/');
  if (rand() < 0.3) target += '/';
  if (rand() < 0.1) {
    const slashes = [...target].flatMap((ch, i) => (ch === '/' ? [i] : []));
    const at = pick(slashes);
    target = target.slice(0, at) + '/' + target.slice(at);
  }
  if (rand() < 0.15) target += pick(QUERIES);
  const headers = baseHeaders(port);
  if (rand() < 0.15) headers.Accept = 'application/json';
  if (rand() < 0.2) headers.Referer = pick(REFERERS);
  if (['POST', 'PUT', 'PATCH'].includes(method)) headers['Content-Length'] = '0';
  return { method, target, headers };
}

const XF = {
  'X-Forwarded-Proto': ['https', 'http', 'HTTPS', 'https, http'],
  'X-Forwarded-Host': ['proxy.example.org', 'proxy.example.org:9000', 'PROXY.Example.org', 'a.example, b.example'],
  'X-Forwarded-Port': ['443', '8443', '80', '9001'],
  'X-Forwarded-Prefix': ['/app', '/app/', '/a/b', ''],
  'X-Forwarded-For': ['203.0.113.7', '203.0.113.7, 10.0.0.1', '2001:db8::1'],
};
const TRUSTED_REQUESTS = [
  ['GET', '/nope'], ['GET', '/nope?x=1'], ['GET', '/hello'], ['HEAD', '/hello'], ['GET', '/plain/?a=1'],
  ['DELETE', '/api/books'], ['GET', '/api/books/abc'], ['POST', '/'], ['GET', '/index.php/nope'],
];

function generateTrusted(rand, port) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const [method, target] = pick(TRUSTED_REQUESTS);
  const headers = baseHeaders(port);
  for (const [name, values] of Object.entries(XF)) if (rand() < 0.5) headers[name] = pick(values);
  if (rand() < 0.2) headers.Referer = pick(REFERERS);
  if (method === 'POST') headers['Content-Length'] = '0';
  return { method, target, headers };
}

/** Header values are JS strings; they go on the wire as UTF-8 (node:http would send Latin-1). */
function wireHeaders(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) out[k] = Buffer.from(v, 'utf8').toString('latin1');
  return out;
}

function send(port, req) {
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.target, headers: wireHeaders(req.headers), setHost: false, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res));
        res.on('error', reject);
      },
    );
    r.setTimeout(30000, () => r.destroy(new Error('timeout')));
    r.on('error', reject);
    r.end();
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const rand = mulberry32(opts.seed);
  const generate = opts.variant === 'trusted' ? generateTrusted : generateDefault;
  const prefix = opts.variant === 'trusted' ? 'rnd-trusted' : 'rnd';
  const recorded = [];
  const skipped = [];
  let attempts = 0;
  while (recorded.length < opts.n) {
    if (++attempts > opts.n * 5) throw new Error('too many skipped requests');
    const req = generate(rand, opts.port);
    const why = exclusion(req.target);
    if (why) {
      skipped.push(`${req.method} ${req.target}: ${why}`);
      continue;
    }
    let res;
    try {
      res = await send(opts.port, req);
    } catch (err) {
      skipped.push(`${req.method} ${req.target}: ${err.message}`);
      continue;
    }
    const xde = res.headers['x-debug-exception'];
    // header values arrive as Latin-1 strings; re-read them as UTF-8
    const utf8 = (v) => (v === undefined ? undefined : Buffer.from(String(v), 'latin1').toString('utf8'));
    recorded.push(makeCase({
      id: `${prefix}-${opts.seed}-${String(recorded.length + 1).padStart(3, '0')}`,
      variant: opts.variant,
      method: req.method,
      target: req.target,
      headers: req.headers,
      status: res.statusCode,
      allow: utf8(res.headers.allow),
      location: utf8(res.headers.location),
      message: xde === undefined ? undefined : decodeRawUrl(String(xde)),
      contentType: utf8(res.headers['content-type']),
    }));
  }

  let existing = [];
  if (fs.existsSync(opts.out)) existing = JSON.parse(fs.readFileSync(opts.out, 'utf8'));
  const merged = [...existing.filter((c) => c.variant !== opts.variant), ...recorded];
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, JSON.stringify(merged, null, 2) + '\n');
  process.stderr.write(`${recorded.length} ${opts.variant} cases (seed ${opts.seed}) written to ${opts.out}; `
    + `${merged.length} in total; ${skipped.length} skipped${skipped.length ? ':\n  ' + skipped.join('\n  ') : ''}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
