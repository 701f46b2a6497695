/**
 * The JSON body reader's depth limit (issue 27, point 5): a merge patch nested a few thousand
 * levels deep overflowed the stack of `mergePatch` (a 500 for any ROLE_USER). Every JSON body is
 * now refused past 512 levels of arrays and objects, with a 400 naming the limit.
 */
import type { Server } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { createJsonBodyReader, JSON_MAX_DEPTH, nestedDeeperThan } from '../../../src/http/body/JsonBodyReader';
import { KernelConfigError } from '../../../src/config/KernelConfigError';

const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
const DEPTH_MESSAGE = 'Malformed JSON body: nested deeper than the limit of 512 arrays and objects.';

/** `depth` levels of arrays (`[[…]]`, 2 bytes a level) or objects (`{"a":{…}}`, 6 bytes a level), as text. */
function nested(depth: number, kind: 'array' | 'object', leaf = '1'): string {
  return kind === 'array'
    ? '['.repeat(depth) + leaf + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

/** The depth of a parsed JSON value, by recursion (the reference; small values only). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value as unknown[] : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('nestedDeeperThan(value, maxDepth)', () => {
  test('counts arrays and objects: a scalar is 0 deep, [] 1, {"a":[]} 2', () => {
    expect(nestedDeeperThan('x', 0)).toBe(false);
    expect(nestedDeeperThan([], 0)).toBe(true);
    expect(nestedDeeperThan([], 1)).toBe(false);
    expect(nestedDeeperThan({ a: [] }, 1)).toBe(true);
    expect(nestedDeeperThan({ a: [] }, 2)).toBe(false);
  });

  test('walks 100,000 levels without overflowing the stack', () => {
    const deep = JSON.parse(nested(100_000, 'array')) as unknown;
    expect(nestedDeeperThan(deep, JSON_MAX_DEPTH)).toBe(true);
    expect(nestedDeeperThan(deep, 100_000)).toBe(false);
  });

  test('property: agrees with the recursive depth of any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(10), (value, max) => {
      expect(nestedDeeperThan(value, max)).toBe(depthOf(value) > max);
    }), { numRuns: 300 });
  });
});

describe('createJsonBodyReader({ maxDepth })', () => {
  test('a maxDepth that is not a whole number from 1 is refused at construction', () => {
    expect(() => createJsonBodyReader({ maxDepth: 0 })).toThrow(KernelConfigError);
    expect(() => createJsonBodyReader({ maxDepth: 1.5 })).toThrow(/maxDepth/);
  });
});

describe('JSON bodies of the demo API, nested deep', () => {
  let kernel: DemoKernel;
  let server: Server;
  beforeAll(async () => {
    kernel = createDemoKernel({ debug: false });
    // one listening server for every request (supertest would start and stop one per request)
    server = kernel.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await kernel.close();
  });

  const send = (method: 'post' | 'put' | 'patch', body: string) => request(server)[method](
    method === 'post' ? '/api/books' : '/api/books/2',
  ).set('Authorization', USER).set('Accept', 'application/json')
    .set('Content-Type', method === 'patch' ? 'application/merge-patch+json' : 'application/json')
    .send(body);

  test('a merge patch of objects 10,000 levels deep (60 KB) is a 400 naming the limit, not a 500', async () => {
    const res = await send('patch', `{"title":${nested(10_000, 'object')}}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(DEPTH_MESSAGE);
    // nothing was written
    expect((await request(server).get('/api/books/2').set('Accept', 'application/json')).body.title).toBe('Hyperion');
  });

  test('512 levels are read (the API\'s type check answers), 513 are the 400', async () => {
    // the outer object is one level: 511 more inside it make 512
    const at = await send('put', `{"title":"Hyperion","isbn":${nested(511, 'object', '"x"')}}`);
    // API Platform's denormalization 400 for a value of the wrong type (issue 24), not the depth's
    expect([at.status, at.body.detail])
      .toEqual([400, 'The type of the "isbn" attribute must be "string", "array" given.']);
    const over = await send('put', `{"title":"Hyperion","isbn":${nested(512, 'object', '"x"')}}`);
    expect([over.status, over.body.detail]).toEqual([400, DEPTH_MESSAGE]);
  });

  test('property: any nesting depth of any JSON body gives a 2xx or 4xx, the depth 400 exactly past 512', async () => {
    await fc.assert(fc.asyncProperty(
      fc.constantFrom('post' as const, 'put' as const, 'patch' as const),
      fc.constantFrom('array' as const, 'object' as const),
      fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 16_000 })),
      fc.constantFrom('title', 'extra'),
      async (method, kind, depth, property) => {
        const body = `{"title":"Solaris","${property === 'title' ? 'price' : 'x'}":${nested(depth, kind)}}`;
        const res = await send(method, body);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (Buffer.byteLength(body) > 100 * 1024) expect(res.status).toBe(413);
        else if (depth + 1 > JSON_MAX_DEPTH) expect([res.status, res.body.detail]).toEqual([400, DEPTH_MESSAGE]);
        else expect(res.body.detail).not.toBe(DEPTH_MESSAGE);
      },
    ), { numRuns: 60 });
  });
});
