/**
 * Issue 24: `@api-platform/api-doc-parser` 0.16.10 (the parser behind API Platform Admin and its
 * client generator) reads the demo's Hydra documentation, found from the entrypoint's `Link`
 * header, over real HTTP on 127.0.0.1: every resource, field type, `required` flag, the to-one
 * `Book.author`, every operation and the search parameters; and its OpenAPI side on
 * `/api/docs.json`. The parser is an ES module, which
 * jest's CommonJS runtime cannot load: `apiDocParser.mjs` runs it in a child `node`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { listen, type Listening } from '../../helpers/http';

const SCRIPT = path.join(__dirname, 'apiDocParser.mjs');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the script's JSON, read by path
type Parsed = any;

function parse(kind: 'hydra' | 'openapi', url: string): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SCRIPT, kind, url], { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

let kernel: DemoKernel;
let server: Listening;
let origin: string;
let api: Parsed;
beforeAll(async () => {
  kernel = createDemoKernel({ debug: false });
  server = await listen(kernel);
  origin = `http://${server.host}:${server.port}`;
  api = await parse('hydra', `${origin}/api`);
});
afterAll(async () => { await server.close(); await kernel.close(); });

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const resource = (name: string): Parsed => api.resources.find((r: Parsed) => r.name === name);

test('finds both resources at their collection URLs', () => {
  expect(api.title).toBe('express-kernel demo');
  expect(api.resources.map((r: Parsed) => [r.name, r.url, r.title])).toEqual([
    ['books', `${origin}/api/books`, 'Book'], ['authors', `${origin}/api/authors`, 'Author'],
  ]);
});

test('Book\'s fields: types, required flags, Book.author a to-one reference to authors', () => {
  expect(resource('books').fields.map((f: Parsed) => [f.name, f.type, f.required, f.reference, f.maxCardinality])).toEqual([
    ['title', 'string', true, null, null],
    ['isbn', 'string', false, null, null],
    ['publishedAt', 'date', false, null, null],
    ['price', 'decimal', false, null, null],
    ['featured', 'boolean', false, null, null],
    ['author', 'string', false, 'authors', 1],
  ]);
  expect(resource('books').writable).toEqual(['title', 'isbn', 'publishedAt', 'price', 'featured', 'author']);
  expect(resource('authors').fields.map((f: Parsed) => [f.name, f.type, f.required])).toEqual([
    ['name', 'string', true], ['birthDate', 'date', false],
  ]);
});

test.each([['books', 'Book'], ['authors', 'Author']])('%s: list, create, show, edit (PUT, PATCH) and delete', (name, shortName) => {
  const schema = (action: string): string => `http://schema.org/${action}`;
  const hydra = 'http://www.w3.org/ns/hydra/core#Operation';
  expect(resource(name).operations).toEqual([
    { name: `Retrieves the collection of ${shortName} resources.`, type: 'list', method: 'GET', types: [hydra, schema('FindAction')] },
    { name: `Creates a ${shortName} resource.`, type: 'create', method: 'POST', types: [hydra, schema('CreateAction')] },
    { name: `Retrieves a ${shortName} resource.`, type: 'show', method: 'GET', types: [hydra, schema('FindAction')] },
    { name: `Replaces the ${shortName} resource.`, type: 'edit', method: 'PUT', types: [hydra, schema('ReplaceAction')] },
    { name: `Updates the ${shortName} resource.`, type: 'edit', method: 'PATCH', types: [hydra] },
    { name: `Deletes the ${shortName} resource.`, type: 'delete', method: 'DELETE', types: [hydra, schema('DeleteAction')] },
  ]);
});

test('the search parameters of Book\'s collection, with their ranges', () => {
  const parameters = resource('books').parameters.map((p: Parsed) => [p.variable, p.range]);
  expect(parameters).toEqual(expect.arrayContaining([
    ['title', `${XSD}string`], ['order[price]', `${XSD}decimal`], ['featured', `${XSD}boolean`],
    ['author', `${origin}/api/docs.jsonld#Author`], ['publishedAt[after]', `${XSD}date`],
  ]));
});

describe('the OpenAPI document (API Platform Admin\'s OpenAPI mode)', () => {
  let openapi: Parsed;
  beforeAll(async () => { openapi = await parse('openapi', `${origin}/api/docs.json`); });
  const of = (name: string): Parsed => openapi.resources.find((r: Parsed) => r.name === name);

  test('finds both resources under the API\'s prefix, each with its list, create, show, edit and delete', () => {
    // with `servers: [{url: '/'}]` and full paths (API Platform's) the URLs were /books, without list or create
    expect(openapi.resources.map((r: Parsed) => [r.name, r.url])).toEqual([
      ['books', `${origin}/api/books`], ['authors', `${origin}/api/authors`],
    ]);
    for (const name of ['books', 'authors']) {
      expect([name, [...new Set(of(name).operations.map((o: Parsed) => o.type))].sort()])
        .toEqual([name, ['create', 'delete', 'edit', 'list', 'show']]);
    }
  });

  test('Book\'s fields: required flags, scalar types, Book.author a to-one reference to authors', () => {
    const fields = Object.fromEntries(of('books').fields.map((f: Parsed) => [f.name, f]));
    expect(Object.keys(fields)).toEqual(['id', 'title', 'isbn', 'publishedAt', 'price', 'featured', 'author']);
    expect(Object.values(fields).filter((f: Parsed) => f.required).map((f: Parsed) => f.name)).toEqual(['id', 'title']);
    expect([fields.title.type, fields.publishedAt.type, fields.featured.type]).toEqual(['string', 'date', 'boolean']);
    expect([fields.author.reference, fields.author.maxCardinality]).toEqual(['authors', 1]);
  });
});
