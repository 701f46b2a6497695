/**
 * Embeddable value objects in the API's documentation (issue 25; API Platform 3.4's
 * `SchemaFactory`, which writes an embedded class's own definition and refers to it): the OpenAPI
 * document gives `Address` a component per format and groups (`Address-customer.read`,
 * `Address.jsonld-customer.read`, the body's `Address-customer.write`) that the owner's schemas
 * `$ref`; the running API's answers in JSON-LD, HAL, JSON and JSON:API validate with ajv against
 * the schema the document gives them, and an answer with a field of the wrong type, a JSON-LD value
 * object without its `@type`, or a field the API never sends is refused. The Hydra documentation
 * lists `#Address` as a class with its fields, the range of `Customer/address`.
 */
import { validate } from '@readme/openapi-parser';
import request from 'supertest';
import { z } from 'zod';
import {
  defineResource, embeddable, GetCollection, Get, groups, MemoryState, Patch, Post, Put, readOnly,
} from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { documentChecker, servedDocuments, type Doc, type HydraDoc, type Schema } from './documentChecker';

const LD = 'application/ld+json';
const HAL = 'application/hal+json';
const JSON_TYPE = 'application/json';
const JSONAPI = 'application/vnd.api+json';
const MERGE = 'application/merge-patch+json';

const ADDRESS = embeddable(z.object({
  street: z.string().min(1),
  city: z.string().min(1),
  zip: z.int().optional(),
  since: z.iso.date().optional(),
}), { name: 'Address' });

function define(state: MemoryState) {
  const store = { provider: state, processor: state };
  return [
    defineResource({
      shortName: 'Customer',
      schema: z.object({
        id: readOnly(z.int()),
        name: groups(z.string().min(1), ['customer:read', 'customer:write']),
        address: groups(ADDRESS.nullable().describe('Where the customer lives.'), ['customer:read', 'customer:write']),
      }),
      normalizationContext: { groups: ['customer:read'] },
      denormalizationContext: { groups: ['customer:write'] },
      operations: [GetCollection(), Get(), Post(), Put(), Patch()],
      ...store,
    }),
    // no groups, the value object required: `Address` sent, `Address.input` written
    defineResource({
      shortName: 'Shop',
      schema: z.object({ id: readOnly(z.int()), address: ADDRESS }),
      ...store,
    }),
  ];
}

let kernel: Kernel;
let doc: Doc;
let hydra: HydraDoc;

beforeAll(async () => {
  ({ kernel, doc, hydra } = await servedDocuments(define(new MemoryState())));
});
afterAll(() => kernel.close());

const schemas = (): Doc['components']['schemas'] => doc.components.schemas;
const { errorsOf, responseSchema, requestSchema } = documentChecker(() => doc);
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

describe('the OpenAPI document', () => {
  test('is valid and gives the value object components of its own, which the owner\'s schemas $ref', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(Object.keys(schemas())).toEqual(expect.arrayContaining([
      'Address-customer.read', 'Address.jsonld-customer.read', 'Address-customer.write', 'Address', 'Address.jsonld',
      'Address.input',
    ]));
    const read = schemas()['Customer.jsonld-customer.read'].properties!.address;
    expect(read).toEqual({
      description: 'Where the customer lives.', 'x-groups': ['customer:read', 'customer:write'],
      anyOf: [ref('Address.jsonld-customer.read'), { type: 'null' }],
    });
    expect(schemas()['Customer-customer.read'].properties!.address.anyOf)
      .toEqual([ref('Address-customer.read'), { type: 'null' }]);
    expect(schemas()['Customer-customer.write'].properties!.address.anyOf)
      .toEqual([ref('Address-customer.write'), { type: 'null' }]);
    expect(schemas()['Shop.jsonld'].properties!.address).toEqual(ref('Address.jsonld'));
    expect(schemas()['Shop.input'].properties!.address).toEqual(ref('Address.input'));
  });

  test('the value object\'s schema gives its fields\' types: every field sent, null when empty; the body\'s its required ones', () => {
    const sent = schemas()['Address-customer.read'];
    expect(sent.required).toEqual(['street', 'city', 'zip', 'since']);
    expect(sent.properties).toMatchObject({
      street: { type: 'string', minLength: 1 },
      zip: { type: ['integer', 'null'] },
      since: { type: ['string', 'null'], format: 'date' },
    });
    expect(schemas()['Address.jsonld-customer.read'].properties!['@type']).toMatchObject({ const: 'Address' });
    expect(schemas()['Address-customer.write'].required).toEqual(['street', 'city']);
  });
});

describe('real answers validate against the schema the document gives', () => {
  beforeAll(async () => {
    for (const [url, body] of [
      ['/api/customers', { name: 'Ann', address: { street: '1 rue de Rivoli', city: 'Paris', since: '2020-02-29' } }],
      ['/api/customers', { name: 'Bob', address: null }],
      ['/api/shops', { address: { street: 'Main St', city: 'Oslo', zip: 150 } }],
    ] as const) {
      expect(errorsOf(requestSchema(url.slice(4), 'post', JSON_TYPE), body)).toEqual([]);
      await request(kernel).post(url).set('Content-Type', JSON_TYPE).send(JSON.stringify(body)).expect(201);
    }
  });

  test.each([LD, HAL, JSON_TYPE, JSONAPI])('%s: items and collections with the value object', async (type) => {
    const gets: Array<[string, string]> = [
      ['/customers/{id}', '/api/customers/1'], ['/customers/{id}', '/api/customers/2'], ['/customers', '/api/customers'],
      ['/shops/{id}', '/api/shops/1'], ['/shops', '/api/shops'],
    ];
    for (const [path, url] of gets) {
      const body = JSON.parse((await request(kernel).get(url).set('Accept', type).expect(200)).text);
      expect([url, errorsOf(responseSchema(path, 'get', 200, type), body)]).toEqual([url, []]);
    }
    const item = JSON.parse((await request(kernel).get('/api/customers/1').set('Accept', type)).text);
    const address = (type === JSONAPI ? item.data.attributes.address : item.address) as Record<string, unknown>;
    // what was validated holds the value object, an empty field null
    expect(address).toMatchObject({ street: '1 rue de Rivoli', zip: null });
    const schema = responseSchema('/customers/{id}', 'get', 200, type);
    const spoiled = (change: (a: Record<string, unknown>) => void): unknown => {
      const copy = structuredClone(item);
      change(type === JSONAPI ? copy.data.attributes.address : copy.address);
      return copy;
    };
    // a field of the wrong type, a field the API never sends, a missing field: refused
    expect(errorsOf(schema, spoiled((a) => { a.zip = '75001'; }))).not.toEqual([]);
    expect(errorsOf(schema, spoiled((a) => { a.country = 'FR'; }))).not.toEqual([]);
    expect(errorsOf(schema, spoiled((a) => { delete a.city; }))).not.toEqual([]);
    if (type === LD) {
      expect(address['@type']).toBe('Address');
      expect(errorsOf(schema, spoiled((a) => { delete a['@type']; }))).not.toEqual([]);
    }
  });

  test('bodies the request schemas accept are taken, and what they answer validates; a wrong field type is refused by both', async () => {
    const put = { name: 'Ann', address: { street: 'Storgata', city: 'Bergen', zip: 5011 } };
    expect(errorsOf(requestSchema('/customers/{id}', 'put', LD), put)).toEqual([]);
    const replaced = await request(kernel).put('/api/customers/1').set('Content-Type', LD).set('Accept', LD)
      .send(JSON.stringify(put)).expect(200);
    expect(errorsOf(responseSchema('/customers/{id}', 'put', 200, LD), replaced.body)).toEqual([]);
    // a merge patch of one field
    const patch = { address: { city: 'Oslo' } };
    expect(errorsOf(requestSchema('/customers/{id}', 'patch', MERGE), patch)).toEqual([]);
    const patched = await request(kernel).patch('/api/customers/1').set('Content-Type', MERGE).set('Accept', HAL)
      .send(JSON.stringify(patch)).expect(200);
    expect(patched.body.address).toEqual({ street: 'Storgata', city: 'Oslo', zip: 5011, since: null });
    expect(errorsOf(responseSchema('/customers/{id}', 'patch', 200, HAL), patched.body)).toEqual([]);
    const wrong = { name: 'Cid', address: { street: 'a', city: 'b', zip: 'x' } };
    expect(errorsOf(requestSchema('/customers', 'post', JSON_TYPE), wrong)).not.toEqual([]);
    expect(errorsOf(requestSchema('/customers/{id}', 'patch', MERGE), { address: { zip: 'x' } })).not.toEqual([]);
    await request(kernel).post('/api/customers').set('Content-Type', JSON_TYPE).send(JSON.stringify(wrong)).expect(400);
  });
});

describe('the Hydra documentation', () => {
  const cls = (id: string) => hydra['hydra:supportedClass'].find((k) => k['@id'] === id);
  const properties = (id: string) => (cls(id)!['hydra:supportedProperty'] as Array<{ 'hydra:property': Schema }>)
    .map((p) => p['hydra:property']);

  test('lists the value object as a class with its fields, the range of the owner\'s property', () => {
    expect(cls('#Address')).toMatchObject({ '@type': 'hydra:Class', 'rdfs:label': 'Address', 'hydra:title': 'Address' });
    expect(properties('#Address').map((p) => [p['@id'], p.domain, p.range])).toEqual([
      ['#Address/street', '#Address', 'xmls:string'], ['#Address/city', '#Address', 'xmls:string'],
      ['#Address/zip', '#Address', 'xmls:integer'], ['#Address/since', '#Address', 'xmls:date'],
    ]);
    const street = (cls('#Address')!['hydra:supportedProperty'] as Array<Record<string, unknown>>)[0];
    expect(street).toMatchObject({ 'hydra:required': true, 'hydra:readable': true, 'hydra:writeable': true });
    expect(properties('#Customer').find((p) => p['rdfs:label'] === 'address')).toMatchObject({
      '@type': 'rdf:Property', range: '#Address',
    });
    // one class, however many resources hold it
    expect(hydra['hydra:supportedClass'].filter((k) => k['@id'] === '#Address')).toHaveLength(1);
  });
});
