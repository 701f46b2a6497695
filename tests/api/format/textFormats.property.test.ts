/**
 * The text formats round-trip (issue 25, point 4): any book, written by a format's item encoder
 * and read back by its decoder, is the same object. Strings are any text (formula characters,
 * quotes, commas, line breaks, `]]>`, `<`, `&`), numbers any finite double.
 */
import fc from 'fast-check';
import { defineResource, Get, MemoryState, type Format } from '../../../src/api';
import { BUILT_IN_FORMATS } from '../../../src/api/format/builtInFormats';
import type { DecodeContext, ItemContext } from '../../../src/api/format/Format';
import { bookSchema } from '../../../src/demo/resources';

const book = defineResource({ shortName: 'Book', schema: bookSchema, provider: new MemoryState(), operations: [Get()] });

/** What the encoders and decoders read of their context here: the resource and the normalized item. */
function roundTrip(format: Format, normalized: Record<string, unknown>): unknown {
  const item = { id: normalized.id as number, data: {} };
  const text = format.item({ resource: book, item, normalize: () => ({ ...normalized }) } as unknown as ItemContext);
  if (typeof text !== 'string') throw new Error('expected a synchronous encoder');
  return format.decode!(text, { resource: book, previous: null } as unknown as DecodeContext);
}

/**
 * A text of any characters, with the ones that matter to the formats often: formula starts,
 * quotes, separators, line breaks, markup, full-width forms, and anything else.
 */
const special = fc.constantFrom(...'\'=+-@\t\r\n",; \\<>&]!?\uFF1D\uFF0B\uFF0D\uFF20aZ0.'.split(''));
const anyChar = fc.oneof(special, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
const anyText = fc.string({ unit: anyChar, maxLength: 30 });
const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));

/** A book as the API normalizes it; a nullable text is never '' (a text format writes null so). */
function books(text: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    id: fc.integer({ min: 1, max: 2 ** 40 }),
    title: text,
    isbn: fc.option(text.filter((s) => s !== ''), { nil: null }),
    publishedAt: fc.option(fc.constant('1965-08-01'), { nil: null }),
    price: fc.option(double, { nil: null }),
    featured: fc.boolean(),
    author: fc.option(fc.integer({ min: 1, max: 99 }).map((n) => `/api/authors/${n}`), { nil: null }),
  });
}

describe('text formats: an item encoded then decoded is the same item', () => {
  test('CSV', () => {
    fc.assert(fc.property(books(anyText), (normalized) => {
      expect(roundTrip(BUILT_IN_FORMATS.csv, normalized)).toEqual(normalized);
    }), { numRuns: 500 });
  });
});
