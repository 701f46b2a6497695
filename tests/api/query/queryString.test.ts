/**
 * parseQueryString and the NUL character (issue 27, point 6): a `%00` anywhere in a name or a
 * value is a 400 before any store sees it; a query without one decodes as before.
 */
import fc from 'fast-check';
import { InvalidQueryError } from '../../../src/api/http/ApiErrors';
import { NUL_IN_QUERY, parseQueryString } from '../../../src/api/query/queryString';

/** A query-string part: letters, brackets, and percent-encoded characters (NUL excluded). */
const part = fc.array(fc.oneof(
  fc.constantFrom('a', 'b', 'title', '[', ']', '+', '%20', '%C3%A9', '%25', '%2B'),
  fc.string({ minLength: 1, maxLength: 3 }).map((s) => encodeURIComponent(s.replace(/\0/g, ''))),
), { maxLength: 6 }).map((a) => a.join(''));
const pairs = fc.array(fc.tuple(part, part), { minLength: 1, maxLength: 5 });
const join = (list: ReadonlyArray<readonly [string, string]>): string => list.map(([n, v]) => `${n}=${v}`).join('&');

/** What parseQueryString answers: the pairs, or the 400's message. */
function outcome(raw: string): string[] | string {
  try {
    return parseQueryString(raw).flatMap((p) => [p.name, p.value]);
  } catch (e) {
    if (e instanceof InvalidQueryError) return e.message;
    throw e;
  }
}

describe('parseQueryString(raw)', () => {
  test('a %00 in a value or a name is a 400 naming the NUL character', () => {
    for (const raw of ['title=%00', 'title=a%00b', 'a%00=1', 'order[title%00]=asc', 'x=1&title[]=%00']) {
      expect(outcome(raw)).toBe(NUL_IN_QUERY);
    }
  });

  test('property: a %00 at either end of any name or value is that 400; without one, no NUL is decoded', () => {
    fc.assert(fc.property(pairs, fc.nat(), fc.boolean(), fc.boolean(), (list, at, inName, before) => {
      const plain = outcome(join(list));
      if (Array.isArray(plain)) for (const s of plain) expect(s).not.toContain('\u0000');
      const i = at % list.length;
      const withNul = list.map(([n, v], j): [string, string] => {
        if (j !== i) return [n, v];
        const add = (x: string): string => (before ? `%00${x}` : `${x}%00`);
        return inName ? [add(n), v] : [n, add(v)];
      });
      const answer = outcome(join(withNul));
      // never accepted; refused for the NUL unless the query was refused for another reason already
      expect(Array.isArray(answer)).toBe(false);
      if (Array.isArray(plain)) expect(answer).toBe(NUL_IN_QUERY);
    }), { numRuns: 500 });
  });
});
