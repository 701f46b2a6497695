/**
 * Untrusted form bodies (fast-check): whatever a client posts to the back office's forms —
 * strings in every field, fields missing, huge values, repeated fields (arrays), unknown fields —
 * the answer is never a 5xx, and every row the store holds afterwards is valid by the schema.
 */
import fc from 'fast-check';
import { inputSchema } from '../../src/api/write/inputData';
import { loggedIn, STORES, tokenFrom, type Demo } from './backOffice';

const FIELDS = ['title', 'isbn', 'publishedAt', 'price', 'featured', 'author', 'id', 'version', '_version', 'extra'];

/** One field's value: text of any kind, a number-like or date-like string, a big one, or several (an array). */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '1', '0', '-1', '9,5', '1e400', 'NaN', 'true', 'on', '2026-02-30', '1969-05-01',
    '2026-01-01T10:00', '/api/authors/1', '/api/authors/999', '99999999999999999', '<script>', '\u0000'),
  fc.string({ minLength: 300, maxLength: 2000 }),
);
const value = fc.oneof(text, fc.array(text, { minLength: 2, maxLength: 3 }));
const body = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: FIELDS.length });

function encode(fields: Record<string, string | string[]>, token: string): string {
  const pairs: string[] = [`_token=${token}`];
  for (const [k, v] of Object.entries(fields)) {
    for (const one of Array.isArray(v) ? v : [v]) pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(one)}`);
  }
  return pairs.join('&');
}

describe.each(STORES)('random form bodies on %s', (_name, open) => {
  let demo: Demo;
  afterEach(() => demo.close());

  test('never a 5xx; every stored book satisfies the schema', async () => {
    demo = await open();
    const admin = await loggedIn(demo.kernel);
    const token = await tokenFrom(admin);
    const book = demo.kernel.resources.find((r) => r.shortName === 'Book')!;
    await fc.assert(fc.asyncProperty(body, fc.constantFrom('/admin/books/new', '/admin/books/1/edit'),
      async (fields, url) => {
        const res = await admin.post(url).type('form').send(encode(fields, token));
        expect([200, 303, 400, 409, 413, 422]).toContain(res.status);
      }), { numRuns: 60 });
    const page = await book.provider!.provideCollection(book.metadata,
      { conditions: [], order: [], page: 1, itemsPerPage: 100, partial: false });
    for (const item of page.items) {
      const { author, ...rest } = item.data;
      const asClient = { ...rest, author: author === null ? null : `/api/authors/${Number(author)}` };
      expect(inputSchema(book).safeParse(asClient).success).toBe(true);
    }
  });
});
