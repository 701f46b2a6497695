/**
 * Issue 25: external vocabularies (API Platform 3.4's `#[ApiResource(types: [...])]` and
 * `#[ApiProperty(iris: [...], types: [...])]`; docs "Using External Vocabularies", features
 * main/relation.feature (RelatedDummy's `"@type": "https://schema.org/Product"`),
 * json-ld/context.feature (`"name": "https://schema.org/name"`), hydra/docs.feature (`hydra:property.@id`
 * `https://schema.org/name`, `range` `https://schema.org/Product` on a relation to it)). The
 * JSON-LD `@type` of items (documents, collection members, embedded documents), the context's
 * terms, the Hydra classes and properties, OpenAPI's `@type` and `externalDocs`; a JSON-LD
 * processor expands them to the external IRIs. MemoryState over real HTTP (the stores keep no
 * IRI: nothing of this reaches them).
 */
import jsonld from 'jsonld';
import { z } from 'zod';
import {
  apiRoutes, createOpenApiDocument, defineResource, describeApi, Get, GetCollection, groups, MemoryState, Post,
  readOnly, relation,
} from '../../../src/api';
import { KernelConfigError } from '../../../src/config/KernelConfigError';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { listen, type Listening } from '../../helpers/http';

const LD = 'application/ld+json';
const SCHEMA = 'https://schema.org/';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON documents read by path
type Node = Record<string, any>;

function define(state: MemoryState) {
  const person = defineResource({
    shortName: 'Person', types: [`${SCHEMA}Person`],
    schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read']) }),
    properties: { name: { iris: [`${SCHEMA}name`] } },
    provider: state, processor: state,
  });
  const book = defineResource({
    shortName: 'Book', types: [`${SCHEMA}Book`],
    schema: z.object({
      id: readOnly(z.int()),
      title: groups(z.string().min(1), ['book:read']),
      isbn: groups(z.string(), ['book:read']),
      author: groups(relation('Person'), ['book:read']),
      note: groups(z.string().optional(), ['book:read']),
    }),
    properties: {
      title: { iris: [`${SCHEMA}name`] },
      isbn: { iris: [`${SCHEMA}isbn`, 'http://purl.org/ontology/bibo/isbn'], types: [`${SCHEMA}Text`] },
      author: { iris: [`${SCHEMA}author`] },
    },
    normalizationContext: { groups: ['book:read'] },
    provider: state, processor: state,
  });
  // two classes: @type is an array; no property IRI: the API's vocabulary
  const offer = defineResource({
    shortName: 'Offer', types: [`${SCHEMA}Offer`, `${SCHEMA}Demand`],
    schema: z.object({ id: readOnly(z.int()), price: z.number(), book: relation('Book') }),
    operations: [GetCollection(), Get(), Post()],
    provider: state, processor: state,
  });
  return [person, book, offer];
}

let kernel: Kernel;
let server: Listening;
let origin: string;

async function send(method: string, path: string, body?: object): Promise<{ status: number; body: Node }> {
  const res = await fetch(`${origin}${path}`, {
    method, headers: { Accept: LD, 'Content-Type': LD }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() as Node };
}

beforeAll(async () => {
  const state = new MemoryState();
  kernel = createKernel({ routes: apiRoutes({ resources: define(state) }), debug: false });
  server = await listen(kernel);
  origin = `http://${server.host}:${server.port}`;
  expect((await send('POST', '/api/persons', { name: 'Ursula' })).status).toBe(201);
  const created = await send('POST', '/api/books', { title: 'Lathe', isbn: '978-0', author: '/api/persons/1' });
  expect(created.status).toBe(201);
  expect((await send('POST', '/api/offers', { price: 9.5, book: '/api/books/1' })).status).toBe(201);
});
afterAll(async () => { await server.close(); });

describe('the JSON-LD @type of items is the resource\'s types (API Platform\'s ItemNormalizer)', () => {
  test('an item document: @type the external class; @context and @id as before', async () => {
    const { body } = await send('GET', '/api/books/1');
    expect(body).toMatchObject({ '@context': '/api/contexts/Book', '@id': '/api/books/1', '@type': `${SCHEMA}Book` });
  });

  test('collection members carry it; the collection stays a hydra:Collection', async () => {
    const { body } = await send('GET', '/api/books');
    expect(body['@type']).toBe('hydra:Collection');
    expect(body['hydra:member'][0]).toMatchObject({ '@id': '/api/books/1', '@type': `${SCHEMA}Book` });
  });

  test('an embedded document carries its own resource\'s types', async () => {
    const { body } = await send('GET', '/api/books/1');
    expect(body.author).toEqual({ '@id': '/api/persons/1', '@type': `${SCHEMA}Person`, id: 1, name: 'Ursula' });
  });

  test('several types: @type is an array of them, in order', async () => {
    const { body } = await send('GET', '/api/offers/1');
    expect(body['@type']).toEqual([`${SCHEMA}Offer`, `${SCHEMA}Demand`]);
  });
});

describe('the JSON-LD context maps each property to its iris (API Platform\'s ContextBuilder)', () => {
  // API Platform writes several as an array, which JSON-LD refuses: the first one here
  test('the term is its first IRI; a relation keeps @type @id; without iris Book/<name>', async () => {
    const { body } = await send('GET', '/api/contexts/Book');
    expect(body['@context']).toMatchObject({
      title: `${SCHEMA}name`,
      isbn: `${SCHEMA}isbn`,
      author: { '@id': `${SCHEMA}author`, '@type': '@id' },
      note: 'Book/note',
    });
  });

  test('a JSON-LD processor expands the item to the external IRIs', async () => {
    const { body } = await send('GET', '/api/offers/1');
    const documentLoader = async (url: string) => {
      if (!url.startsWith(`${origin}/`)) throw new Error(`asked for ${url}, outside the app`);
      const res = await fetch(url, { headers: { Accept: LD } });
      return { contextUrl: undefined, documentUrl: url, document: await res.json() as object };
    };
    const book = (await send('GET', '/api/books/1')).body;
    const [item] = await jsonld.expand(book,
      { base: `${origin}/api/books/1`, documentLoader: documentLoader as never }) as Node[];
    expect(item['@type']).toEqual([`${SCHEMA}Book`]);
    expect(item[`${SCHEMA}name`]).toEqual([{ '@value': 'Lathe' }]);
    expect(item[`${SCHEMA}isbn`]).toEqual([{ '@value': '978-0' }]);
    const [author] = item[`${SCHEMA}author`] as Node[];
    expect(author['@type']).toEqual([`${SCHEMA}Person`]);
    const docs = (await send('GET', '/api/docs.jsonld')).body;
    await expect(jsonld.expand(docs as jsonld.JsonLdDocument, { base: `${origin}/api/docs.jsonld` })).resolves.toBeDefined();
    const [offer] = await jsonld.expand(body,
      { base: `${origin}/api/offers/1`, documentLoader: documentLoader as never }) as Node[];
    expect(offer['@type']).toEqual([`${SCHEMA}Offer`, `${SCHEMA}Demand`]);
    expect(offer[`${origin}/api/docs.jsonld#Offer/price`]).toEqual([{ '@value': 9.5 }]);
  });
});

describe('the Hydra documentation names the classes and properties by their IRIs (DocumentationNormalizer)', () => {
  let doc: Node;
  beforeAll(async () => { doc = (await send('GET', '/api/docs.jsonld')).body; });
  const classOf = (id: string): Node => doc['hydra:supportedClass'].find((c: Node) => c['@id'] === id);
  const propertyOf = (cls: Node, name: string): Node =>
    cls['hydra:supportedProperty'].find((p: Node) => p['hydra:title'] === name)['hydra:property'];

  test('a class\'s @id is its first type; its label and title stay the short name', () => {
    expect(classOf(`${SCHEMA}Book`)).toMatchObject({ '@type': 'hydra:Class', 'rdfs:label': 'Book', 'hydra:title': 'Book' });
    expect(classOf(`${SCHEMA}Offer`)['hydra:title']).toBe('Offer');
    expect(classOf('#Book')).toBeUndefined();
  });

  test('a property\'s @id is its iris, its domain the class; a relation\'s range is its target\'s types', () => {
    const book = classOf(`${SCHEMA}Book`);
    expect(propertyOf(book, 'title')).toMatchObject({ '@id': `${SCHEMA}name`, domain: `${SCHEMA}Book`, range: 'xmls:string' });
    // the IRIs after the first: owl:equivalentProperty (an array @id is not JSON-LD)
    expect(propertyOf(book, 'isbn')).toMatchObject({
      '@id': `${SCHEMA}isbn`, 'owl:equivalentProperty': [{ '@id': 'http://purl.org/ontology/bibo/isbn' }],
    });
    expect(propertyOf(book, 'note')['@id']).toBe('#Book/note');
    expect(propertyOf(book, 'author')).toMatchObject({
      '@id': `${SCHEMA}author`, '@type': 'hydra:Link', range: `${SCHEMA}Person`, 'owl:maxCardinality': 1,
    });
    // from the other side: Offer.book's range is Book's type
    expect(propertyOf(classOf(`${SCHEMA}Offer`), 'book').range).toBe(`${SCHEMA}Book`);
  });

  test('the entrypoint\'s collection property points at the class by its IRI', () => {
    const entrypoint = classOf('#Entrypoint');
    const books = entrypoint['hydra:supportedProperty']
      .find((p: Node) => p['hydra:property']['@id'] === '#Entrypoint/book')['hydra:property'];
    expect(books['rdfs:range'][1]['owl:equivalentClass']['owl:allValuesFrom']).toEqual({ '@id': `${SCHEMA}Book` });
  });
});

describe('OpenAPI: the JSON-LD @type and a property\'s types (SchemaPropertyMetadataFactory)', () => {
  const doc = createOpenApiDocument(describeApi(define(new MemoryState())));
  const schemas = (doc.components as Node).schemas as Node;

  test('the jsonld schema\'s @type is the types; component names keep the short name', () => {
    const [name] = Object.keys(schemas).filter((n) => n.startsWith('Book.jsonld'));
    expect(schemas[name].properties['@type']).toMatchObject({ const: `${SCHEMA}Book` });
    const [offer] = Object.keys(schemas).filter((n) => n.startsWith('Offer.jsonld'));
    expect(schemas[offer].properties['@type']).toMatchObject({
      type: 'array', const: [`${SCHEMA}Offer`, `${SCHEMA}Demand`],
    });
  });

  test('a property with types has its first as externalDocs.url, in outputs and bodies', () => {
    const withIsbn = Object.entries(schemas).filter(([n, s]) => n.startsWith('Book') && s.properties?.isbn !== undefined);
    expect(withIsbn.length).toBeGreaterThanOrEqual(2);
    for (const [, s] of withIsbn) expect(s.properties.isbn.externalDocs).toEqual({ url: `${SCHEMA}Text` });
    for (const [, s] of withIsbn) expect(s.properties.title.externalDocs).toBeUndefined();
  });
});

describe('defineResource checks the IRIs up front', () => {
  const schema = z.object({ name: z.string() });
  test.each([
    [{ types: [] }, 'resources.Thing.types', 'at least one IRI'],
    [{ types: ['has space'] }, 'resources.Thing.types[0]', 'expected an IRI'],
    [{ properties: { name: { iris: ['@id'] } } }, 'resources.Thing.properties.name.iris[0]', 'expected an IRI'],
    [{ properties: { nam: { iris: [`${SCHEMA}name`] } } }, 'resources.Thing.properties.nam', 'did you mean "name"'],
  ])('%j is refused, naming %s', (options, option, message) => {
    let error: unknown;
    try {
      defineResource({ shortName: 'Thing', schema, provider: new MemoryState(), processor: new MemoryState(), ...options });
    } catch (e) { error = e; }
    expect(error).toBeInstanceOf(KernelConfigError);
    expect((error as Error).message).toContain(option);
    expect((error as Error).message).toContain(message);
  });
});
