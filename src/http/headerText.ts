/**
 * A header value as text: Node reads header bytes as latin1, clients send UTF-8, so valid UTF-8
 * is decoded as such.
 * @param value - a header as Node gives it (`req.headers[name]`; a repeated header's values are joined with `, `)
 * @returns the header's text: UTF-8 decoded when its bytes are valid UTF-8, else as Node read it
 */
export function headerText(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value.join(', ') : value ?? '';
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(v)) return v;
  const bytes = Buffer.from(v, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : v;
}
