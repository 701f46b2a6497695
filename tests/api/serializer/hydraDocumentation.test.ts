/**
 * Issue 24, point 4: the Hydra documentation (`/api/docs.jsonld`) as API Platform 3.4's
 * `Hydra\Serializer\DocumentationNormalizer` writes it: `owl:maxCardinality 1` on a to-one
 * relation, `hydra:entrypoint` an IRI (not a literal) once expanded, operations typed
 * `schema:FindAction` … with API Platform's titles, descriptions from the zod schema's
 * `.describe()`. The demo kernel and a kernel of its own, over real HTTP.
 */
import jsonld from 'jsonld';
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, Delete, defineResource, Get, GetCollection, MemoryState, Patch, Post, Put, readOnly, relation } from '../../../src/api';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { createKernel } from '../../../src/kernel/createKernel';
import { listen, type Listening } from '../../helpers/http';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON documents read by path
type Node = Record<string, any>;
const classOf = (doc: Node, id: string): Node => doc['hydra:supportedClass'].find((c: Node) => c['@id'] === id);
const propertyOf = (cls: Node, name: string): Node =>
  cls['hydra:supportedProperty'].find((p: Node) => p['hydra:title'] === name);

describe('the demo\'s Hydra documentation', () => {
  let kernel: DemoKernel;
  let server: Listening;
  let origin: string;
  let doc: Node;
  beforeAll(async () => {
    kernel = createDemoKernel({ debug: false });
    server = await listen(kernel);
    origin = `http://${server.host}:${server.port}`;
    doc = await (await fetch(`${origin}/api/docs.jsonld`, { headers: { Accept: 'application/ld+json' } })).json() as Node;
  });
  afterAll(async () => { await server.close(); await kernel.close(); });

  test('Book.author is a to-one link to #Author (owl:maxCardinality 1); scalars have none', () => {
    const author = propertyOf(classOf(doc, '#Book'), 'author')['hydra:property'];
    expect(author).toEqual({
      '@id': '#Book/author', '@type': 'hydra:Link', 'rdfs:label': 'author', domain: '#Book',
      'owl:maxCardinality': 1, range: '#Author',
    });
    expect(propertyOf(classOf(doc, '#Book'), 'title')['hydra:property']['owl:maxCardinality']).toBeUndefined();
  });

  test('the context types hydra:entrypoint as an IRI, and the expanded document has it as one', async () => {
    expect(doc['@context']['hydra:entrypoint']).toEqual({ '@id': 'hydra:entrypoint', '@type': '@id' });
    const [expanded] = await jsonld.expand(doc, { base: `${origin}/api/docs.jsonld` }) as Node[];
    expect(expanded['http://www.w3.org/ns/hydra/core#entrypoint']).toEqual([{ '@id': `${origin}/api` }]);
  });

  test('item operations as API Platform types and titles them, in declaration order', () => {
    expect(classOf(doc, '#Book')['hydra:supportedOperation']).toEqual([
      {
        '@type': ['hydra:Operation', 'schema:FindAction'], 'hydra:method': 'GET',
        'hydra:title': 'Retrieves a Book resource.', 'rdfs:label': 'Retrieves a Book resource.', returns: '#Book',
      },
      {
        '@type': ['hydra:Operation', 'schema:ReplaceAction'], expects: '#Book', 'hydra:method': 'PUT',
        'hydra:title': 'Replaces the Book resource.', 'rdfs:label': 'Replaces the Book resource.', returns: '#Book',
      },
      {
        '@type': 'hydra:Operation', expects: '#Book', 'hydra:method': 'PATCH',
        'hydra:title': 'Updates the Book resource.', 'rdfs:label': 'Updates the Book resource.', returns: '#Book',
      },
      {
        '@type': ['hydra:Operation', 'schema:DeleteAction'], 'hydra:method': 'DELETE',
        'hydra:title': 'Deletes the Book resource.', 'rdfs:label': 'Deletes the Book resource.', returns: 'owl:Nothing',
      },
    ]);
  });

  test('the entrypoint\'s property of a collection names its member class and carries list and create', () => {
    const books = classOf(doc, '#Entrypoint')['hydra:supportedProperty']
      .find((p: Node) => p['hydra:property']['@id'] === '#Entrypoint/book');
    expect(books['hydra:title']).toBe('The collection of Book resources');
    expect(books['hydra:property']['rdfs:range']).toEqual([
      { '@id': 'hydra:Collection' },
      { 'owl:equivalentClass': { 'owl:onProperty': { '@id': 'hydra:member' }, 'owl:allValuesFrom': { '@id': '#Book' } } },
    ]);
    expect(books['hydra:property']['hydra:supportedOperation']).toEqual([
      {
        '@type': ['hydra:Operation', 'schema:FindAction'], 'hydra:method': 'GET',
        'hydra:title': 'Retrieves the collection of Book resources.',
        'rdfs:label': 'Retrieves the collection of Book resources.', returns: 'hydra:Collection',
      },
      {
        '@type': ['hydra:Operation', 'schema:CreateAction'], expects: '#Book', 'hydra:method': 'POST',
        'hydra:title': 'Creates a Book resource.', 'rdfs:label': 'Creates a Book resource.', returns: '#Book',
      },
    ]);
  });

  test('the constraint violation classes, ConstraintViolationList a subclass of hydra:Error', () => {
    expect(classOf(doc, '#ConstraintViolation')['hydra:supportedProperty'].map((p: Node) => p['hydra:title']))
      .toEqual(['propertyPath', 'message']);
    expect(classOf(doc, '#ConstraintViolationList').subClassOf).toBe('hydra:Error');
  });
});

describe('descriptions from the zod schema', () => {
  test('.describe() on a property and on the object schema become hydra:description', async () => {
    const state = new MemoryState();
    const shelf = defineResource({
      shortName: 'Shelf', schema: z.object({ label: z.string() }), provider: state, processor: state,
    });
    const item = defineResource({
      shortName: 'Item',
      schema: z.object({
        id: readOnly(z.int()),
        name: z.string().min(1).describe('What the item is called.'),
        code: readOnly(z.string()).nullable().optional(),
        shelf: relation('Shelf').nullable().describe('Where it is kept.'),
      }).describe('Things on shelves.'),
      provider: state,
      processor: state,
      operations: [GetCollection(), Post(), Get(), Put(), Patch(), Delete()],
    });
    const kernel = createKernel({ routes: apiRoutes({ resources: [item, shelf] }), debug: false, environment: 'test' });
    try {
      const doc = (await request(kernel).get('/api/docs.jsonld').expect(200)).body as Node;
      const cls = classOf(doc, '#Item');
      expect(cls['hydra:description']).toBe('Things on shelves.');
      expect(propertyOf(cls, 'name')['hydra:description']).toBe('What the item is called.');
      expect(propertyOf(cls, 'shelf')['hydra:description']).toBe('Where it is kept.');
      expect(propertyOf(cls, 'code')).not.toHaveProperty('hydra:description');
      expect(propertyOf(cls, 'name')['hydra:required']).toBe(true);
      expect(propertyOf(cls, 'code')).toMatchObject({ 'hydra:required': false, 'hydra:writeable': false });
      expect(classOf(doc, '#Shelf')['hydra:description']).toBe('Shelf resources.');
    } finally {
      await kernel.close();
    }
  });
});
