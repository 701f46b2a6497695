const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * PHP's `rawurldecode` for a path: every valid `%XX` becomes its byte (`+` stays `+`), and the
 * bytes are read as UTF-8.
 * @param raw - the raw path as sent
 * @returns the decoded path, or `null` when the bytes are not valid UTF-8 (Symfony's `utf8`
 *   routes then match nothing)
 */
export function rawUrlDecode(raw: string): string | null {
  if (raw.indexOf('%') === -1) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    let c = raw.charCodeAt(i);
    if (c === 37 && i + 2 < raw.length) {
      const hi = hex(raw.charCodeAt(i + 1));
      const lo = hex(raw.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        bytes.push(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    if (c < 0x80) {
      bytes.push(c);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < raw.length) {
      const d = raw.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    // A lone surrogate becomes U+FFFD, as Buffer.from(s, 'utf8') and TextEncoder do.
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  try {
    return decoder.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * Removes every trailing `/` (PHP `rtrim($s, '/')`).
 * @returns the trimmed string, possibly empty
 */
export function rtrimSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 47) end--;
  return end === s.length ? s : s.slice(0, end);
}
