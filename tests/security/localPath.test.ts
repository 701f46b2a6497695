import fc from 'fast-check';
import { isLocalPath } from '../../src/security/localPath';

/** Where a browser goes for `Location: <value>` on a page of https://shop.example (WHATWG URL parsing). */
const resolved = (value: string): URL => new URL(value, 'https://shop.example/admin/login');

describe('isLocalPath(value)', () => {
  test('accepts paths on this site, with queries and fragments', () => {
    for (const ok of ['/', '/admin', '/admin/books?page=2&sort=title', '/a#b', '/%2F%2Fevil.example']) {
      expect(isLocalPath(ok)).toBe(true);
    }
  });

  test('refuses what a browser would send elsewhere, and what is not a string', () => {
    for (const bad of ['//evil.example', '/\\evil.example', '\\\\evil.example', 'https://evil.example/', 'javascript:alert(1)',
      '/\t/evil.example', '/\n/evil.example', 'admin', '', ' /admin', '/'.repeat(2049)]) {
      expect(isLocalPath(bad)).toBe(false);
    }
    for (const bad of [undefined, null, 42, ['/admin'], { toString: () => '/admin' }]) expect(isLocalPath(bad)).toBe(false);
  });

  test('property: whatever it accepts, a browser resolves on the same host (no open redirect)', () => {
    const prefixes = fc.constantFrom('/', '//', '/\\', '\\', '/%09/', '/\t/', '/ /', '/.', '/..//', 'https:', '');
    const input = fc.tuple(prefixes, fc.string({ unit: 'binary' })).map(([p, rest]) => p + rest);
    fc.assert(fc.property(fc.oneof(input, fc.string({ unit: 'binary' })), (value) => {
      if (!isLocalPath(value)) return;
      const url = resolved(value);
      expect([url.protocol, url.host]).toEqual(['https:', 'shop.example']);
    }), { numRuns: 2000 });
  });
});
