/**
 * JSON Merge Patch (RFC 7386): the RFC's own examples (Appendix A), and its semantics as
 * properties over random JSON documents.
 */
import fc from 'fast-check';
import { mergePatch } from '../../../src/api/write/mergePatch';

describe('mergePatch(target, patch)', () => {
  test.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('RFC 7386 Appendix A: %j + %j = %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  const json = fc.jsonValue({ maxDepth: 3 });
  const object = fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 5 });

  test('applying a patch twice is applying it once (idempotent)', () => {
    fc.assert(fc.property(json, json, (t, p) => {
      expect(mergePatch(mergePatch(t, p), p)).toEqual(mergePatch(t, p));
    }));
  });

  test('a member the patch sets to null is absent; one it leaves out is unchanged', () => {
    fc.assert(fc.property(object, object, (t, p) => {
      const out = mergePatch(t, p) as Record<string, unknown>;
      for (const [k, v] of Object.entries(p)) {
        if (v === null) expect(Object.prototype.hasOwnProperty.call(out, k)).toBe(false);
        else if (typeof v !== 'object' || Array.isArray(v)) expect(out[k]).toEqual(v);
      }
      for (const k of Object.keys(t)) if (!(k in p)) expect(out[k]).toEqual(t[k]);
    }));
  });

  test('a patch that is not an object replaces the target; the target is never modified', () => {
    fc.assert(fc.property(json, json, (t, p) => {
      const before = JSON.stringify(t);
      const out = mergePatch(t, p);
      expect(JSON.stringify(t)).toBe(before);
      if (typeof p !== 'object' || p === null || Array.isArray(p)) expect(out).toEqual(p);
    }));
  });

  test('a member named __proto__ is an ordinary member, never a prototype change', () => {
    const out = mergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
