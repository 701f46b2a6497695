import fc from 'fast-check';
import { rawUrlDecode, rtrimSlashes } from '../../src/routing/rawUrlDecode';
import { phpRawUrlDecode } from './reference-matcher';

describe('rawUrlDecode(raw)', () => {
  test('decodes %XX in either case and leaves + alone (PHP rawurldecode)', () => {
    expect(rawUrlDecode('/a%2Fb%2fc+d%20e')).toBe('/a/b/c+d e');
  });

  test('leaves malformed % sequences as they are', () => {
    expect(rawUrlDecode('/%G1%2%')).toBe('/%G1%2%');
  });

  test('reads the bytes as UTF-8: %C3%A9 is é', () => {
    expect(rawUrlDecode('/caf%C3%A9')).toBe('/café');
  });

  test('returns null when the bytes are not valid UTF-8', () => {
    expect(rawUrlDecode('/%E9')).toBeNull();
    expect(rawUrlDecode('/%C3')).toBeNull();
  });

  test('decodes only once: %2541 is %41', () => {
    expect(rawUrlDecode('/%2541')).toBe('/%41');
  });

  test('keeps non-ASCII characters next to % sequences, astral ones included', () => {
    expect(rawUrlDecode('/é%20')).toBe('/é ');
    expect(rawUrlDecode('/%41😀')).toBe('/A😀');
  });

  test('agrees with PHP rawurldecode + UTF-8 check on arbitrary strings', () => {
    const piece = fc.oneof(
      fc.constantFrom('%2F', '%2f', '%41', '%C3%A9', '%E9', '%F0%9F%98%80', '%', '%2', '%zz', '+', 'é', '😀', '/'),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((p) => '/' + p.join('')), (raw) => {
        expect(rawUrlDecode(raw)).toBe(phpRawUrlDecode(raw));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('rtrimSlashes(s)', () => {
  test.each([
    ['/a//', '/a'],
    ['/a', '/a'],
    ['///', ''],
    ['', ''],
  ])('%j → %j', (s, out) => {
    expect(rtrimSlashes(s)).toBe(out);
  });
});
