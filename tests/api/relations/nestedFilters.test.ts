/**
 * Filters and order on nested properties and on the identifier (issue 25 point 2, API
 * Platform's `relatedDummy.name` of features/doctrine/search_filter.feature and
 * order_filter.feature): `author.name`, `author.birthDate`, `tags.name` (through a to-many
 * relation) and `id`, over HTTP on every store (MemoryState, SQLite, PostgreSQL); the Hydra and
 * OpenAPI documents list the nested parameters; a path that does not resolve stops the start-up.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, DateFilter, defineResource, describeApi, ExistsFilter, OrderFilter, RangeFilter, readOnly, relation,
  SearchFilter, toMany, type FilterDeclaration, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';

const FILTERS: FilterDeclaration[] = [
  SearchFilter({ 'author.name': 'partial', 'tags.name': 'exact', id: 'exact', 'author.id': 'exact' }),
  OrderFilter(['author.name', 'author.birthDate', 'id', 'title']),
  RangeFilter(['id', 'author.birthDate']),
  DateFilter(['author.birthDate']),
  ExistsFilter(['author.birthDate', 'tags.name']),
];

function resources(provider: StateProvider, processor: StateProcessor, filters = FILTERS) {
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({ id: readOnly(z.int()), name: z.string().min(1), birthDate: z.iso.date().nullable() }),
    provider, processor,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }), provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()), title: z.string().min(1), author: relation('Author').nullable(), tags: toMany('Tag'),
    }),
    filters, provider, processor,
  });
  return [author, tag, book];
}

describeOnEveryStore('filters on nested properties and on id', resources, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
    const post = async (url: string, body: object): Promise<string> => {
      const res = await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', LD)
        .send(JSON.stringify(body));
      expect(res.status).toBe(201);
      return String(res.body['@id']);
    };
    const ann = await post('/api/authors', { name: 'Ann', birthDate: '1950-01-01' });
    const bob = await post('/api/authors', { name: 'Bob', birthDate: null });
    const joanna = await post('/api/authors', { name: 'Joanna', birthDate: '1980-05-05' });
    const sf = await post('/api/tags', { name: 'sf' });
    const classic = await post('/api/tags', { name: 'classic' });
    await post('/api/books', { title: 'Dune', author: ann, tags: [sf] });
    await post('/api/books', { title: 'Emma', author: bob, tags: [classic] });
    await post('/api/books', { title: 'Solaris', author: joanna, tags: [sf, classic] });
    await post('/api/books', { title: 'Anonymous', author: null, tags: [] });
  });
  afterEach(() => opened.close());

  const titles = async (query: string): Promise<string[]> => {
    const res = await request(kernel).get(`/api/books?${query}`).set('Accept', JSON_TYPE);
    expect(res.status).toBe(200);
    return (res.body as Array<{ title: string }>).map((b) => b.title);
  };

  test('SearchFilter on author.name (partial) and on tags.name (exact, through the to-many relation)', async () => {
    expect(await titles('author.name=ANN')).toEqual(['Dune', 'Solaris']);
    expect(await titles('tags.name=classic')).toEqual(['Emma', 'Solaris']);
    expect(await titles('tags.name[]=sf&tags.name[]=classic')).toEqual(['Dune', 'Emma', 'Solaris']);
    expect(await titles('tags.name=sf&author.name=jo')).toEqual(['Solaris']);
    expect(await titles('tags.name=nothing')).toEqual([]);
  });

  test('order[author.name]: a book without an author sorts as null (first ascending, last descending)', async () => {
    expect(await titles('order[author.name]=asc')).toEqual(['Anonymous', 'Dune', 'Emma', 'Solaris']);
    expect(await titles('order[author.name]=desc')).toEqual(['Solaris', 'Emma', 'Dune', 'Anonymous']);
    expect(await titles('order[author.birthDate]=desc&order[title]=asc'))
      .toEqual(['Solaris', 'Dune', 'Anonymous', 'Emma']);
    expect(await titles('order[title]=desc')).toEqual(['Solaris', 'Emma', 'Dune', 'Anonymous']);
  });

  test('DateFilter, RangeFilter and ExistsFilter on author.birthDate; ExistsFilter on tags.name', async () => {
    expect(await titles('author.birthDate[after]=1960-01-01')).toEqual(['Solaris']);
    expect(await titles('author.birthDate[strictly_before]=1960-01-01')).toEqual(['Dune']);
    expect(await titles('author.birthDate[between]=1940-01-01..1990-01-01')).toEqual(['Dune', 'Solaris']);
    expect(await titles('exists[author.birthDate]=true')).toEqual(['Dune', 'Solaris']);
    // as API Platform's left join: no author at all is no birth date either
    expect(await titles('exists[author.birthDate]=false')).toEqual(['Emma', 'Anonymous']);
    expect(await titles('exists[tags.name]=false')).toEqual(['Anonymous']);
  });

  test('filters on id: an id or the item\'s IRI, any of, a range, the order; author.id by the author\'s IRI', async () => {
    expect(await titles('id=2')).toEqual(['Emma']);
    expect(await titles('id=/api/books/3')).toEqual(['Solaris']);
    expect(await titles('id[]=1&id[]=/api/books/4')).toEqual(['Dune', 'Anonymous']);
    expect(await titles('id[gt]=2')).toEqual(['Solaris', 'Anonymous']);
    expect(await titles('order[id]=desc')).toEqual(['Anonymous', 'Solaris', 'Emma', 'Dune']);
    expect(await titles('author.id=/api/authors/2')).toEqual(['Emma']);
    // another resource's IRI is no id of a book: ignored, as API Platform ignores what it cannot read
    expect(await titles('id=/api/authors/1')).toEqual(['Dune', 'Emma', 'Solaris', 'Anonymous']);
  });

  test('the view\'s links keep the nested filters and the order through the relation', async () => {
    const res = await request(kernel).get('/api/books?author.name=ann&order[author.name]=desc&itemsPerPage=1')
      .set('Accept', LD);
    expect(res.body['hydra:member'].map((b: { title: string }) => b.title)).toEqual(['Solaris']);
    expect(res.body['hydra:view']['hydra:next'])
      .toBe('/api/books?author.name=ann&order%5Bauthor.name%5D=desc&itemsPerPage=1&page=2');
    const next = await request(kernel).get(res.body['hydra:view']['hydra:next']).set('Accept', LD);
    expect(next.body['hydra:member'].map((b: { title: string }) => b.title)).toEqual(['Dune']);
  });

  test('hydra:search maps the nested parameters to their dotted property, as API Platform does', async () => {
    const res = await request(kernel).get('/api/books').set('Accept', LD);
    const mapping = res.body['hydra:search']['hydra:mapping'] as Array<{ variable: string; property: string }>;
    expect(mapping).toEqual(expect.arrayContaining([
      expect.objectContaining({ variable: 'author.name', property: 'author.name' }),
      expect.objectContaining({ variable: 'tags.name[]', property: 'tags.name' }),
      expect.objectContaining({ variable: 'order[author.name]', property: 'author.name' }),
      expect.objectContaining({ variable: 'author.birthDate[after]', property: 'author.birthDate' }),
      expect.objectContaining({ variable: 'exists[tags.name]', property: 'tags.name' }),
      expect.objectContaining({ variable: 'id[gt]', property: 'id' }),
    ]));
  });
});

describe('nested filters at start-up', () => {
  const store = (): { provider: StateProvider; processor: StateProcessor } => {
    const none = (): never => { throw new Error('not used'); };
    return {
      provider: { provideCollection: none, provideItem: none },
      processor: { create: none, replace: none, remove: none },
    };
  };
  const routes = (filters: FilterDeclaration[]) => () => {
    const { provider, processor } = store();
    return apiRoutes({ resources: resources(provider, processor, filters) });
  };

  test('a misspelt segment is named with a "did you mean" of its own resource', () => {
    expect(routes([SearchFilter({ 'author.nmae': 'partial' })])).toThrow(
      'Invalid option "resources.Book.filters[0].properties": "nmae" is no property of Author (got "author.nmae"); '
        + 'did you mean "name"?');
    // the first segment is checked as soon as the resource is declared
    expect(routes([SearchFilter({ 'autor.name': 'partial' })])).toThrow('did you mean "author"?');
  });

  test('a segment that is no relation, an order through a to-many relation, a text search on id', () => {
    expect(routes([SearchFilter({ 'title.name': 'exact' })])).toThrow('"title" of Book is no relation');
    expect(routes([OrderFilter(['tags.name'])])).toThrow('an order cannot cross the to-many relation "tags"');
    expect(routes([SearchFilter({ id: 'partial' })])).toThrow('only "exact" applies to the identifier');
    expect(routes([ExistsFilter(['id'])])).toThrow('a exists filter does not apply to the identifier');
    expect(routes([RangeFilter(['author.name'])])).toThrow('a range filter does not apply to a string property');
  });

  test('describeApi resolves them too: OpenAPI lists author.name and order[author.name]', () => {
    const { provider, processor } = store();
    const api = describeApi(resources(provider, processor));
    const collection = api.resources.find((r) => r.shortName === 'Book')!.operations
      .find((op) => op.kind === 'GetCollection')!;
    const names = collection.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['author.name', 'author.name[]', 'order[author.name]', 'id', 'id[]']));
  });
});
