/**
 * The JSON-LD the API serves expands without error in a standard JSON-LD processor (the
 * `jsonld` package), with a document loader that fetches contexts from the app itself: no
 * network beyond 127.0.0.1.
 */
import jsonld from 'jsonld';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { listen, type Listening } from '../helpers/http';

let kernel: DemoKernel;
let server: Listening;
let origin: string;
const fetched: string[] = [];

beforeAll(async () => {
  kernel = createDemoKernel({ debug: false });
  server = await listen(kernel);
  origin = `http://${server.host}:${server.port}`;
});
afterAll(async () => { await server.close(); await kernel.close(); });

/** Loads only from the app under test; anything else fails the test. */
type Loaded = { contextUrl: undefined; documentUrl: string; document: unknown };
const documentLoader = async (url: string): Promise<Loaded> => {
  if (!url.startsWith(`${origin}/`)) throw new Error(`the document loader was asked for ${url}, outside the app`);
  fetched.push(url);
  const res = await fetch(url, { headers: { Accept: 'application/ld+json' } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return { contextUrl: undefined, documentUrl: url, document: await res.json() };
};

async function expand(path: string): Promise<jsonld.JsonLdDocument[]> {
  const res = await fetch(`${origin}${path}`, { headers: { Accept: 'application/ld+json' } });
  const doc = (await res.json()) as jsonld.JsonLdDocument;
  return jsonld.expand(doc, { base: `${origin}${path}`, documentLoader: documentLoader as never });
}

const VOCAB = (): string => `${origin}/api/docs.jsonld#`;

describe('the JSON-LD documents expand in the jsonld processor', () => {
  test('an item: its @id absolute, its type and properties in the API vocabulary, the relation an IRI', async () => {
    const [item] = (await expand('/api/books/1')) as Array<Record<string, unknown>>;
    expect(item['@id']).toBe(`${origin}/api/books/1`);
    expect(item['@type']).toEqual([`${VOCAB()}Book`]);
    expect(item[`${VOCAB()}Book/title`]).toEqual([{ '@value': 'Dune' }]);
    expect(item[`${VOCAB()}Book/author`]).toEqual([{ '@id': `${origin}/api/authors/1` }]);
    expect(fetched).toContain(`${origin}/api/contexts/Book`);
  });

  test('a collection: hydra:member, hydra:totalItems and the view in the Hydra vocabulary', async () => {
    const [page] = (await expand('/api/books?itemsPerPage=2')) as Array<Record<string, unknown>>;
    const hydra = 'http://www.w3.org/ns/hydra/core#';
    expect(page['@type']).toEqual([`${hydra}Collection`]);
    expect(page[`${hydra}totalItems`]).toEqual([{ '@value': 3 }]);
    expect((page[`${hydra}member`] as unknown[]).length).toBe(2);
    expect(page[`${hydra}view`]).toBeDefined();
  });

  test.each(['/api', '/api/docs.jsonld', '/api/authors/2', '/api/contexts/Book'])('%s expands without error', async (path) => {
    await expect(expand(path)).resolves.toBeDefined();
  });

  test('errors (hydra:Error, ConstraintViolationList) expand too', async () => {
    await expect(expand('/api/books/999')).resolves.toBeDefined();
    const res = await fetch(`${origin}/api/books`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('user:user').toString('base64')}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(422);
    const expanded = await jsonld.expand((await res.json()) as jsonld.JsonLdDocument, { base: `${origin}/api/books`, documentLoader: documentLoader as never });
    expect(JSON.stringify(expanded)).toContain('ConstraintViolationList/violations');
  });
});
