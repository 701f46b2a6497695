/**
 * Validation groups (issue 25, API Platform's features/main/validation.feature and its
 * DummyValidation fixture): `validationGroups()` puts a property's constraints in groups, an
 * operation's `validationContext.groups` chooses which are checked (names, a GroupSequence, a
 * function of the object), `Default` semantics as Symfony's; on every store, since a property with
 * groups has a nullable column.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, GroupSequence, MemoryState, Patch, Post, Get, validationGroups,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { KernelConfigError } from '../../../src/config/KernelConfigError';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const LD = 'application/ld+json';

/** DummyValidation: `name` NotNull in group a, `title` NotNull in group b, `code` in Default. */
const schema = z.object({
  code: z.string().min(1),
  name: validationGroups(z.string(), ['a']),
  title: validationGroups(z.string(), ['b']),
  summary: validationGroups(z.string().min(10).nullable(), ['publish', 'Default']),
  note: validationGroups(z.string().max(3), ['publish']),
});

function define(provider: StateProvider, processor: StateProcessor) {
  return [defineResource({
    shortName: 'DummyValidation',
    routePrefix: '/dummy_validation',
    schema,
    provider,
    processor,
    operations: [
      Get(), Post(), Patch(),
      Post({ name: 'post_validation_groups', uriTemplate: '/dummy_validation/validation_groups',
        validationContext: { groups: ['a'] } }),
      Post({ name: 'post_validation_sequence', uriTemplate: '/dummy_validation/validation_sequence',
        validationContext: { groups: GroupSequence(['b', 'a']) } }),
      Post({ name: 'post_by_class', uriTemplate: '/dummy_validation/by_class',
        validationContext: { groups: ['DummyValidation'] } }),
      Post({ name: 'post_publish', uriTemplate: '/dummy_validation/publish',
        validationContext: { groups: (o) => (o.code === 'draft' ? ['Default'] : ['Default', 'publish']) } }),
    ],
  })];
}

describeOnEveryStore('validation groups', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const post = (url: string, body: object) => request(kernel).post(url).set('Content-Type', LD)
    .set('Accept', LD).send(JSON.stringify(body));

  test('Create a resource: the Default group alone, name and title (groups a, b) may be left out', async () => {
    const res = await post('/dummy_validation', { code: 'My Dummy' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(res.body).toMatchObject({ code: 'My Dummy', name: null, title: null });
    const read = await request(kernel).get(res.headers.location).set('Accept', LD);
    expect(read.body).toMatchObject({ code: 'My Dummy', name: null, title: null });
  });

  test('Create a resource with validation: groups ["a"] checks name only (a 422 on name)', async () => {
    const res = await post('/dummy_validation/validation_groups', { code: 'My Dummy' });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'name' })]);
    expect(res.body.detail).toMatch(/^name: /);
  });

  test('a constraint of the Default group is not checked when only another group is', async () => {
    const res = await post('/dummy_validation/validation_groups', { code: '', name: 'n' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: '', name: 'n' });
  });

  test('Create a resource with validation group sequence: b fails first, a is not reported', async () => {
    const res = await post('/dummy_validation/validation_sequence', { code: 'My Dummy' });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'title' })]);
    const second = await post('/dummy_validation/validation_sequence', { code: 'My Dummy', title: 't' });
    expect(second.body.violations).toEqual([expect.objectContaining({ propertyPath: 'name' })]);
    const ok = await post('/dummy_validation/validation_sequence', { code: 'My Dummy', title: 't', name: 'n' });
    expect(ok.status).toBe(201);
  });

  test('the resource\'s name is a group holding the Default constraints (Symfony)', async () => {
    const res = await post('/dummy_validation/by_class', { code: '' });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'code' })]);
  });

  test('outside its groups a property is still type-checked: a number for a string is a 400', async () => {
    const res = await post('/dummy_validation', { code: 'c', name: 12 });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/"name"/);
  });

  test('a function of the object chooses the groups: publish checks note and summary, a draft does not', async () => {
    const draft = await post('/dummy_validation/publish', { code: 'draft', note: 'far too long' });
    expect(draft.status).toBe(201);
    const res = await post('/dummy_validation/publish', { code: 'final', note: 'far too long', summary: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(['note', 'summary']);
  });

  test('a property in Default and another group is checked by default too; PATCH validates Default', async () => {
    const res = await post('/dummy_validation', { code: 'c', summary: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'summary' })]);
    const created = await post('/dummy_validation', { code: 'c', note: 'longer than three' });
    expect(created.status).toBe(201);
    const patched = await request(kernel).patch(created.headers.location)
      .set('Content-Type', 'application/merge-patch+json').set('Accept', LD).send(JSON.stringify({ code: '' }));
    expect(patched.status).toBe(422);
    expect(patched.body.violations).toEqual([expect.objectContaining({ propertyPath: 'code' })]);
  });
});

describe('validationContext options', () => {
  const state = new MemoryState();
  const make = (operation: ReturnType<typeof Post>) => () => defineResource({
    shortName: 'Thing', schema: z.object({ a: z.string() }), provider: state, processor: state, operations: [operation],
  });

  test('groups that are not names, a sequence or a function are refused at start-up, naming the option', () => {
    let thrown: unknown;
    try {
      make(Post({ validationContext: { groups: 'a' as unknown as string[] } }))();
    } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(KernelConfigError);
    expect(String((thrown as Error).message)).toContain('resources.Thing.operations[0].validationContext.groups');
  });

  test('validationContext on an operation that reads no body is refused', () => {
    expect(make(Get({ validationContext: { groups: ['a'] } }))).toThrow(/validationContext/);
  });

  test('validationGroups() refuses an empty list of groups', () => {
    expect(() => validationGroups(z.string(), [])).toThrow(/non-empty group names/);
  });
});
