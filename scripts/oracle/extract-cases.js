#!/usr/bin/env node
'use strict';
// Converts the oracle's recorded battery (/work/shared/oracle/cases.json, written by its probe.py)
// into tests/fixtures/oracle/cases.json. Usage: node scripts/oracle/extract-cases.js [source] [dest]

const fs = require('node:fs');
const path = require('node:path');
const { decodeRawUrl, makeCase } = require('./lib');

const SOURCE = process.argv[2] || '/work/shared/oracle/cases.json';
const DEST = process.argv[3] || path.join(__dirname, '..', '..', 'tests', 'fixtures', 'oracle', 'cases.json');

const VARIANT_BY_PORT = { 8001: 'default', 8002: 'trusted', 8003: 'serializer' };

function variantOf(c) {
  const port = new URL(c.base).port;
  const variant = VARIANT_BY_PORT[port];
  if (!variant) throw new Error(`${c.id}: unknown oracle base ${c.base}`);
  return variant;
}

/** Why a recorded case is not something a routing kernel can answer, or undefined to keep it. */
function dropReason(c) {
  const r = c.response;
  if (r.curl_exit_code === 52 || r.status == null) return 'no reply from php -S (curl 52)';
  if (r.status === 501 && c.method === 'FOO') return 'php -S answers unknown methods itself (501)';
  const p = c.path.split('?')[0];
  if (p === '/_profiler/phpinfo') return 'phpinfo() page';
  if (p === '/_profiler/open') return 'file excerpt page (500 TypeError without ?file)';
  return undefined;
}

/** request_on_wire → request-target and header map (names as curl sent them). */
function parseWire(c) {
  const [requestLine, ...headerLines] = c.response.request_on_wire;
  const m = /^(\S+) (.*) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!m) throw new Error(`${c.id}: cannot parse request line ${JSON.stringify(requestLine)}`);
  if (m[1] !== c.method) throw new Error(`${c.id}: method ${m[1]} on the wire, ${c.method} recorded`);
  const headers = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    if (i <= 0) throw new Error(`${c.id}: bad header line ${JSON.stringify(line)}`);
    const name = line.slice(0, i);
    if (Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase())) {
      throw new Error(`${c.id}: repeated header ${name}`);
    }
    headers[name] = line.slice(i + 1).trim();
  }
  return { target: m[2], headers };
}

function main() {
  const source = JSON.parse(fs.readFileSync(SOURCE, 'utf8'));
  const all = source.cases;

  // token → id of the case whose response carried it (main or previous/sub-request token)
  const tokenOwner = new Map();
  for (const c of all) {
    const k = c.response.key_headers || {};
    if (k['x-debug-token']) tokenOwner.set(k['x-debug-token'], c.id);
    if (k['x-previous-debug-token']) tokenOwner.set(k['x-previous-debug-token'], `${c.id} (sub-request)`);
  }

  const out = [];
  const dropped = [];
  for (const c of all) {
    const reason = dropReason(c);
    if (reason) {
      dropped.push(`${c.id}: ${reason}`);
      continue;
    }
    const r = c.response;
    const k = r.key_headers || {};
    const { target, headers } = parseWire(c);
    const pathOnly = target.split(/[?#]/)[0];

    let message;
    if (k['x-debug-exception'] !== undefined) {
      message = decodeRawUrl(k['x-debug-exception']);
      if (r.x_debug_exception_decoded !== undefined && r.x_debug_exception_decoded !== message) {
        throw new Error(`${c.id}: decoded X-Debug-Exception differs from the recorded one`);
      }
    }

    const notes = [];
    if (/^\/admin(\/|$)/.test(pathOnly)) {
      if (r.status === 401) notes.push('admin: the oracle\'s firewall (http_basic, access_control ^/admin) answered 401 after routing matched');
      else if (headers.Authorization) notes.push('admin: authenticated request, the firewall let it through');
      else notes.push('admin: path under /admin, answered by routing before the firewall');
    }
    if (/^\/_profiler(\/|$)/.test(pathOnly)) notes.push('profiler: web profiler page');
    if (/^\/_wdt(\/|$)/.test(pathOnly)) notes.push('wdt: web debug toolbar');
    const tokenInPath = /^\/_(?:profiler|wdt)\/([0-9a-f]{6})(?:\/|$)/.exec(pathOnly);
    if (tokenInPath && tokenOwner.has(tokenInPath[1])) {
      notes.push(`profiler-token: ${tokenInPath[1]} is the token recorded for case ${tokenOwner.get(tokenInPath[1])}; tokens differ per run`);
    }
    if (k.location && /\/_profiler\/[0-9a-f]{6}\//.test(k.location)) {
      notes.push('profiler-token: Location carries the newest profile token of that run');
    }
    if (k['x-debug-exception'] !== undefined && r.error_page && r.error_page.exception_message
        && r.error_page.exception_message.length > message.length) {
      notes.push(`truncated: the message is ${r.error_page.exception_message.length} characters; X-Debug-Exception carries the first 2000`);
    }

    out.push(makeCase({
      id: c.id,
      variant: variantOf(c),
      method: c.method,
      target,
      headers,
      body: c.body_sent,
      status: r.status,
      allow: k.allow,
      location: k.location,
      message,
      contentType: k['content-type'],
      note: notes.length ? notes.join('; ') : undefined,
    }));
  }

  fs.mkdirSync(path.dirname(DEST), { recursive: true });
  fs.writeFileSync(DEST, JSON.stringify(out, null, 2) + '\n');
  process.stderr.write(`${out.length} cases written to ${DEST}; ${dropped.length} dropped:\n  ${dropped.join('\n  ')}\n`);
}

main();
