'use strict';
// Shared by extract-cases.js and record-random.js: how a recorded answer becomes a fixture case.

const HOSTPORT_RE = /127\.0\.0\.1:800[123]/g;
const PLACEHOLDER = '{{hostport}}';

/** Replaces the oracle's own host:port (8001, 8002, 8003) by the placeholder. */
function placeholder(value) {
  return typeof value === 'string' ? value.replace(HOSTPORT_RE, PLACEHOLDER) : value;
}

/**
 * Decodes a PHP rawurlencode()d header value. decodeURIComponent first; if the 2000-character cut
 * split a UTF-8 sequence it throws, and the bytes are then decoded leniently.
 */
function decodeRawUrl(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    const bytes = [];
    for (let i = 0; i < value.length; i++) {
      const m = /^%([0-9A-Fa-f]{2})/.exec(value.slice(i, i + 3));
      if (m) {
        bytes.push(parseInt(m[1], 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(value[i], 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
}

/** Builds one fixture case; undefined fields are left out so the JSON stays small. */
function makeCase({ id, variant, method, target, headers, body, status, allow, location, message, contentType, note }) {
  const out = { id, variant, method, target };
  const h = {};
  for (const [name, value] of Object.entries(headers || {})) h[name] = placeholder(value);
  out.headers = h;
  if (body !== undefined && body !== null) out.body = body;
  out.status = status;
  if (allow !== undefined) out.allow = allow;
  if (location !== undefined) out.location = placeholder(location);
  if (message !== undefined) out.message = placeholder(message);
  if (contentType !== undefined) out.contentType = contentType;
  if (note !== undefined) out.note = placeholder(note);
  return out;
}

module.exports = { HOSTPORT_RE, PLACEHOLDER, placeholder, decodeRawUrl, makeCase };
