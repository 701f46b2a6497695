/**
 * Input and output DTOs (issue 25, API Platform's features/main/input_output.feature): an
 * operation's `input` (the body read and validated as a zod object, handed to the processor), its
 * `output` (what the provider or processor returns, written as that object with the resource's
 * `@type` and the item's `@id`), `input: false` (no body read) and `output: false` (no body
 * written), on MemoryState, SQLite and PostgreSQL.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, createOpenApiDocument, defineResource, Delete, describeApi, Get, GetCollection, groups, Post, Put,
  storeProcessor, storeProvider,
  type CollectionPage, type Processor, type Provider, type StateProcessor, type StateProvider, type StoredItem,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { KernelConfigError } from '../../../src/config/KernelConfigError';
import { MemoryState } from '../../../src/api';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const LD = 'application/ld+json';
const JSON_TYPE = 'application/json';

const bookSchema = z.object({
  title: z.string().min(1), price: z.number().nullable(), published: z.boolean().default(false),
});
/** DummyDtoCustom's input: other names than the resource's. */
const QuickInput = z.object({ name: z.string().min(3), cents: z.int().min(0) });
/** DummyDtoCustom's output. */
const Card = z.object({ label: z.string(), priceText: z.string().nullable() });

/**
 * An input DTO and the resource's property rules and groups, as API Platform 3.4's
 * `AbstractItemNormalizer::denormalize` reads an input: the DTO's class becomes the
 * `resource_class`, so the operation's denormalization groups apply to the DTO's own properties
 * (symfony's `getAllowedAttributes`) while the resource's `#[ApiProperty(security: …,
 * securityPostDenormalize: …)]` do not (the DTO is no resource: `canAccessAttribute` is true).
 */
function defineNotes(provider: StateProvider, processor: StateProcessor) {
  const persist = storeProcessor(processor);
  const write = (names: string[]) => groups(z.string().nullable().default(null), names);
  const NoteInput = z.object({
    title: groups(z.string(), ['note:write']), price: groups(z.number().nullable(), ['note:write']),
    secret: write(['note:write']), internal: write(['note:admin']), untagged: z.string().nullable().default(null),
  });
  const quick: Processor = {
    process: (data, operation, uriVariables, context) => persist.process({
      title: data.title, price: data.price, secret: data.secret,
      // what reached the processor of the properties outside the groups
      note: `internal=${String(data.internal)} untagged=${String(data.untagged)}`,
    }, operation, uriVariables, context),
  };
  return [defineResource({
    shortName: 'Note',
    schema: z.object({
      title: z.string(), price: z.number().nullable(), secret: z.string().nullable(), note: z.string().nullable(),
    }),
    provider,
    processor,
    properties: {
      // a price is never taken from a body; a secret not on a creation
      price: { securityPostDenormalize: () => false },
      secret: { security: ({ object }) => object !== null },
    },
    operations: [
      Get(), Post(),
      Post({ name: 'note_quick', uriTemplate: '/notes/quick', input: NoteInput, processor: quick,
        denormalizationContext: { groups: ['note:write'] } }),
    ],
  })];
}

function define(provider: StateProvider, processor: StateProcessor) {
  const persist = storeProcessor(processor);
  const books = storeProvider(provider);
  const card = (item: StoredItem): StoredItem => ({
    ...item,
    data: { label: `«${String(item.data.title)}»`, priceText: item.data.price === null ? null : `€${Number(item.data.price)}` },
  });
  const quick: Processor = {
    process: (data, operation, uriVariables, context) => persist.process(
      { title: data.name, price: Number(data.cents) / 100, published: false }, operation, uriVariables, context,
    ),
  };
  const io: Processor = {
    async process(data, operation, uriVariables, context) {
      const book = await persist.process({ title: data.foo, price: data.bar, published: false }, operation,
        uriVariables, context);
      return book && { ...book, data: { baz: book.data.price, bat: book.data.title } };
    },
  };
  const publish: Processor = {
    process: (data, operation, uriVariables, context) =>
      persist.process({ ...data, published: true }, operation, uriVariables, context),
  };
  const cardItem: Provider = {
    async provide(operation, uriVariables, context) {
      const item = await books.provide(operation, uriVariables, context) as StoredItem | null;
      return item === null ? null : card(item);
    },
  };
  const cardPage: Provider = {
    async provide(operation, uriVariables, context) {
      const page = await books.provide(operation, uriVariables, context) as CollectionPage;
      return { ...page, items: page.items.map(card) };
    },
  };
  const IoOutput = z.object({ id: z.int(), baz: z.number().nullable(), bat: z.string() });
  return [defineResource({
    shortName: 'Book',
    schema: bookSchema,
    provider,
    processor,
    operations: [
      GetCollection(), Get(), Post(), Put(), Delete(),
      Post({ name: 'book_quick', uriTemplate: '/books/quick', input: QuickInput, processor: quick }),
      Get({ name: 'book_card', uriTemplate: '/books/{id}/card', output: Card, provider: cardItem }),
      GetCollection({ name: 'book_cards', uriTemplate: '/book_cards', output: Card, provider: cardPage }),
      Post({ name: 'book_io', uriTemplate: '/book_io', input: z.object({ foo: z.string(), bar: z.int() }),
        output: IoOutput, processor: io }),
      Post({ name: 'book_publish', uriTemplate: '/books/{id}/publish', input: false, status: 200, processor: publish }),
      Post({ name: 'book_silent', uriTemplate: '/books/silent', output: false }),
    ],
  }), ...defineNotes(provider, processor)];
}

describeOnEveryStore('input and output DTOs (and an input DTO under groups, beside property rules)', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const post = (url: string, body: object, type = LD) => request(kernel).post(url).set('Content-Type', type)
    .set('Accept', type).send(JSON.stringify(body));
  const newBook = async (title: string, price: number | null): Promise<string> =>
    (await post('/api/books', { title, price })).headers.location;

  test('Create a resource with a custom Input: the processor gets the DTO, the answer is the resource', async () => {
    const res = await post('/api/books/quick', { name: 'Ubik', cents: 1250 });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(res.body).toMatchObject({
      '@id': `/api/books/${res.body.id}`, '@type': 'Book', title: 'Ubik', price: 12.5, published: false,
    });
    expect(res.headers.location).toBe(`/api/books/${res.body.id}`);
  });

  test('the input DTO is validated: a broken constraint is a 422 on its property, a wrong type a 400', async () => {
    const res = await post('/api/books/quick', { name: 'Ub', cents: 1 });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'name' })]);
    const typed = await post('/api/books/quick', { name: 'Ubik', cents: 'lots' });
    expect(typed.status).toBe(400);
    expect(typed.body.detail).toMatch(/"cents"/);
    // the resource's own properties are not what the DTO reads: title alone is a 422 on name and cents
    const resourceBody = await post('/api/books/quick', { title: 'Ubik' });
    expect(resourceBody.status).toBe(422);
    expect(resourceBody.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort())
      .toEqual(['cents', 'name']);
  });

  test('Get an item with a custom output: its properties, the resource\'s @type, the item\'s @id', async () => {
    const iri = await newBook('Solaris', 9);
    const res = await request(kernel).get(`${iri}/card`).set('Accept', LD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      '@context': expect.anything() as unknown, '@id': iri, '@type': 'Book', id: Number(iri.split('/').pop()),
      label: '«Solaris»', priceText: '€9',
    });
    const json = await request(kernel).get(`${iri}/card`).set('Accept', JSON_TYPE);
    expect(json.body).toEqual({ id: Number(iri.split('/').pop()), label: '«Solaris»', priceText: '€9' });
  });

  test('Get a collection with a custom output: each member as the output', async () => {
    const first = await newBook('Solaris', 9);
    const second = await newBook('Eden', null);
    const res = await request(kernel).get('/api/book_cards').set('Accept', LD);
    expect(res.status).toBe(200);
    expect(res.body['hydra:totalItems']).toBe(2);
    expect(res.body['hydra:member']).toEqual([
      expect.objectContaining({ '@id': first, label: '«Solaris»', priceText: '€9' }),
      expect.objectContaining({ '@id': second, label: '«Eden»', priceText: null }),
    ]);
    expect(res.body['hydra:member'][0]).not.toHaveProperty('title');
  });

  test('Create a DummyInputOutput: input and output DTOs on one operation', async () => {
    const res = await post('/api/book_io', { foo: 'test', bar: 1 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      '@context': expect.anything() as unknown, '@id': `/api/books/${res.body.id}`, '@type': 'Book',
      id: res.body.id, baz: 1, bat: 'test',
    });
  });

  test('Create a resource with no input: input: false reads no body, the processor gets the stored item', async () => {
    const iri = await newBook('Dune', 7);
    const res = await post(`${iri}/publish`, { title: 'ignored', price: 'not even a number' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Dune', price: 7, published: true });
  });

  test('Create an object without output: 201, an empty body, and the item stored', async () => {
    const res = await post('/api/books/silent', { title: 'Quiet', price: 1 });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    const list = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
    expect(list.body).toEqual([expect.objectContaining({ title: 'Quiet' })]);
  });

  const postJson = (url: string, body: object) => post(url, body, JSON_TYPE);
  const body = { title: 'Ubik', price: 5, secret: 's3', internal: 'x', untagged: 'y', note: 'n' };

  test('the denormalization groups apply to the DTO\'s properties: one outside them never reaches the processor', async () => {
    const res = await postJson('/api/notes/quick', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Ubik', note: 'internal=null untagged=null' });
  });

  test('the resource\'s property security and securityPostDenormalize do not apply to the DTO', async () => {
    // the control: on the resource's own Post the rules keep price and secret out
    const direct = await postJson('/api/notes', body);
    expect(direct.status).toBe(201);
    expect(direct.body).toMatchObject({ title: 'Ubik', price: null, note: 'n' });
    const stored = await request(kernel).get(`/api/notes/${direct.body.id}`).set('Accept', JSON_TYPE);
    expect(stored.body).toMatchObject({ price: null, secret: null });
    // the DTO's price and secret are its own properties: the processor gets them, and stores them
    const dto = await postJson('/api/notes/quick', body);
    const read = await request(kernel).get(`/api/notes/${dto.body.id}`).set('Accept', JSON_TYPE);
    expect(read.body).toMatchObject({ title: 'Ubik', price: 5, secret: 's3' });
  });
});

describe('input and output options', () => {
  const state = new MemoryState();
  const make = (operation: ReturnType<typeof Post>) => () => defineResource({
    shortName: 'Thing', schema: z.object({ a: z.string() }), provider: state, processor: state, operations: [operation],
  });

  test('an input that is no zod object is refused at start-up, naming the option', () => {
    expect(make(Post({ input: z.string() as unknown as z.ZodObject }))).toThrow(KernelConfigError);
    expect(make(Post({ input: z.string() as unknown as z.ZodObject }))).toThrow(/operations\[0\]\.input/);
  });

  test('a DTO property of no supported kind is refused, naming it', () => {
    expect(make(Get({ output: z.object({ f: z.function() as unknown as z.ZodString }) })))
      .toThrow(/operations\[0\]\.output\.f/);
  });

  test('input on an operation that reads no body, and input: false with deserialize: true, are refused', () => {
    expect(make(Get({ input: z.object({}) }))).toThrow(/operations\[0\]\.input/);
    expect(make(Post({ input: false, deserialize: true }))).toThrow(/operations\[0\]\.deserialize/);
  });
});

describe('the OpenAPI document of input and output DTOs', () => {
  const state = new MemoryState();
  const doc = createOpenApiDocument(describeApi(define(state, state)));
  type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> };
    responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> } };
  const { paths, components } = doc as unknown as Doc;

  test('an input DTO is the request body\'s schema, with its own properties', () => {
    const body = paths['/books/quick'].post.requestBody!.content['application/ld+json'].schema;
    expect(body).toEqual({ $ref: '#/components/schemas/Book.book_quick.input' });
    expect(Object.keys(components.schemas['Book.book_quick.input'].properties!)).toEqual(['name', 'cents']);
    expect(components.schemas['Book.book_quick.input'].required).toEqual(['name', 'cents']);
  });

  test('an output DTO is the response\'s schema, with the resource\'s @type', () => {
    const item = paths['/books/{id}/card'].get.responses['200'].content!['application/ld+json'].schema;
    expect(item).toEqual({ $ref: '#/components/schemas/Book.book_card.output.jsonld' });
    const jsonld = components.schemas['Book.book_card.output.jsonld'].properties!;
    expect(Object.keys(jsonld)).toEqual(expect.arrayContaining(['@id', '@type', 'id', 'label', 'priceText']));
    expect(jsonld).not.toHaveProperty('title');
    expect(jsonld['@type']).toMatchObject({ const: 'Book' });
  });

  test('input: false documents no request body; output: false no response body', () => {
    expect(paths['/books/{id}/publish'].post.requestBody).toBeUndefined();
    expect(paths['/books/silent'].post.requestBody).toBeDefined();
    expect(paths['/books/silent'].post.responses['201'].content).toBeUndefined();
    expect(paths['/books'].post.responses['201'].content).toBeDefined();
  });
});

describe('an input DTO under denormalization groups', () => {
  const state = new MemoryState();
  test('a DTO with no property in the operation\'s groups is refused at start-up, naming the option', () => {
    const make = () => defineResource({
      shortName: 'Thing', schema: z.object({ a: z.string() }), provider: state, processor: state,
      denormalizationContext: { groups: ['thing:write'] },
      operations: [Get(), Post({ input: z.object({ a: z.string() }) })],
    });
    expect(make).toThrow(KernelConfigError);
    expect(make).toThrow(/operations\[1\]\.input.*no property of the input DTO is in the denormalization groups \(thing:write\)/);
  });
});
