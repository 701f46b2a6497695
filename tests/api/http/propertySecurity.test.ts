/**
 * Property-level `security` and `securityPostDenormalize`, and the operations'
 * `securityPostValidation` (issue 25, point 3), as API Platform 3.4's features/authorization/
 * deny.feature has them on SecuredDummy and SecuredDummyWithPropertiesDependingOnThemselves: a
 * user and an admin behind HTTP Basic, over HTTP, on MemoryState, SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, describeApi, Get, GetCollection, Patch, Post, Put, readOnly, relation,
  type PropertySecurityContext, type Resource, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { createOpenApiDocument } from '../../../src/api/openapi/createOpenApiDocument';
import { KernelConfigError } from '../../../src/config/KernelConfigError';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { HttpBasicAuthenticator } from '../../../src/security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../../../src/security/InMemoryUserProvider';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

const basic = (name: string) => `Basic ${Buffer.from(`${name}:${name}`).toString('base64')}`;
const ADMIN = basic('admin');
const USER = basic('dunglas');
const MERGE = 'application/merge-patch+json';
const TRANSFER_MESSAGE = 'Only an admin may give a dummy to someone else.';
const SIGN_IN_MESSAGE = 'Sign in to create a dummy.';

interface Store {
  readonly provider: StateProvider;
  readonly processor: StateProcessor;
}

/** The owner-only rule, as a promise (API Platform's `object == null or object.getOwner() == user`). */
const ownerOnly = async ({ object, user }: PropertySecurityContext): Promise<boolean> =>
  object === null || object.owner === user?.identifier;

function resourcesOn(store: Store): Resource[] {
  const related = defineResource({
    shortName: 'RelatedDummy',
    schema: z.object({ id: readOnly(z.int()), name: z.string() }),
    provider: store.provider,
    processor: store.processor,
    operations: [Get()],
  });
  const secured = defineResource({
    shortName: 'SecuredDummy',
    schema: z.object({
      id: readOnly(z.int()),
      title: z.string().min(1),
      owner: z.string().min(1),
      adminOnlyProperty: z.string().nullable().optional(),
      ownerOnlyProperty: z.string().nullable().optional(),
      canUpdateProperty: z.boolean().default(false),
      property: z.boolean().default(false),
      relatedDummy: relation('RelatedDummy').nullable().optional(),
    }),
    provider: store.provider,
    processor: store.processor,
    operations: [
      GetCollection(), Get(),
      Post({ securityPostValidation: 'ROLE_USER', securityPostValidationMessage: SIGN_IN_MESSAGE }),
      Put({
        security: 'ROLE_USER',
        securityPostValidation: ({ object, previousObject, isGranted }) =>
          isGranted('ROLE_ADMIN') || object.owner === previousObject?.owner,
        securityPostValidationMessage: TRANSFER_MESSAGE,
      }),
      Patch({ security: 'ROLE_USER' }),
    ],
    properties: {
      adminOnlyProperty: { security: 'ROLE_ADMIN' },
      ownerOnlyProperty: {
        security: ownerOnly,
        securityPostDenormalize: ({ object, user }) => object.owner === user?.identifier,
      },
      property: {
        securityPostDenormalize: ({ previousObject }) => previousObject?.canUpdateProperty === true,
      },
      relatedDummy: { security: 'ROLE_ADMIN' },
    },
  });
  return [secured, related];
}

function kernelOn(store: Store): Kernel {
  const provider = new InMemoryUserProvider({
    users: {
      admin: { password: 'admin', roles: ['ROLE_ADMIN'] },
      dunglas: { password: 'dunglas', roles: ['ROLE_USER'] },
    },
  });
  return createKernel({
    routes: apiRoutes({ resources: resourcesOn(store), formats: ['jsonld', 'jsonhal', 'json', 'jsonapi', 'csv', 'xml'] }),
    debug: false,
    security: {
      firewalls: [{
        name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()], entryPoint: 'http_basic',
      }],
      roleHierarchy: { ROLE_ADMIN: ['ROLE_USER'] },
    },
  });
}

/** Someone else's dummy (1) and dunglas' (2), with the related dummy 1. */
async function seed(store: Store, resources: Resource[]): Promise<void> {
  const [secured, related] = resources;
  await store.processor.create(related.metadata, { name: 'Related' });
  const base = { ownerOnlyProperty: null, canUpdateProperty: false, property: false, relatedDummy: 1 };
  await store.processor.create(secured.metadata, {
    ...base, title: 'Theirs', owner: 'someone', adminOnlyProperty: 'Is it safe?',
  });
  await store.processor.create(secured.metadata, {
    ...base, title: 'Mine', owner: 'dunglas', adminOnlyProperty: 'secret', ownerOnlyProperty: 'mine',
  });
}

type Opened = { store: Store; close(): Promise<void> };

function describeOnStores(title: string, cases: (open: () => Promise<Opened>) => void): void {
  describe(`${title} on MemoryState`, () => {
    cases(async () => {
      const state = new MemoryState();
      return { store: { provider: state, processor: state }, close: async () => undefined };
    });
  });
  describe(`${title} on SQLite`, () => {
    let dir: string;
    let n = 0;
    beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-property-security-')); });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    cases(async () => {
      const sql = createSqlState({ sqlitePath: path.join(dir, `case-${++n}.sqlite`) });
      await sql.migrate({ '0001-tables': resourceTablesMigration(resourcesOn(sql).map((r) => r.metadata).reverse()) });
      return { store: sql, close: () => sql.close() };
    });
  });
  describeWith('postgresql')(`${title} on PostgreSQL`, () => {
    let server: TestPostgres;
    let n = 0;
    beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
    afterAll(async () => { await server?.stop(); });
    cases(async () => {
      const sql = createSqlState({ url: await server.createDatabase(`property_security_${++n}`) });
      await sql.migrate({ '0001-tables': resourceTablesMigration(resourcesOn(sql).map((r) => r.metadata).reverse()) });
      return { store: sql, close: () => sql.close() };
    });
  });
}

// a dozen requests through the firewall and every layer, on a loaded 2-core machine
jest.setTimeout(scaled(30_000));

const FORMATS = [
  ['jsonld', 'application/ld+json'], ['jsonhal', 'application/hal+json'], ['json', 'application/json'],
  ['jsonapi', 'application/vnd.api+json'], ['csv', 'text/csv'], ['xml', 'application/xml'],
] as const;

describeOnStores('property security', (open) => {
  let opened: Opened;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    await seed(opened.store, resourcesOn(opened.store));
    kernel = kernelOn(opened.store);
  });
  afterEach(() => opened.close());

  const get = (target: string, auth: string, accept = 'application/json') => {
    const req = request(kernel).get(target).set('Accept', accept);
    return auth === '' ? req : req.set('Authorization', auth);
  };
  const send = (method: 'put' | 'patch' | 'post', target: string, auth: string, body: object) => {
    const req = request(kernel)[method](target).set('Accept', 'application/json')
      .set('Content-Type', method === 'patch' ? MERGE : 'application/json');
    return (auth === '' ? req : req.set('Authorization', auth)).send(JSON.stringify(body));
  };
  /** Dummy `id` as the admin sees it (every property but the owner-only one of another's dummy). */
  const stored = async (id: number) => (await get(`/api/secured_dummies/${id}`, ADMIN).expect(200)).body as
    Record<string, unknown>;

  describe('`security` on read', () => {
    test.each(FORMATS)('in %s, a user gets neither the admin-only property nor the admin-only relation, '
      + 'in the collection and the item; the admin gets both', async (_name, type) => {
      for (const target of ['/api/secured_dummies', '/api/secured_dummies/1']) {
        const user = await get(target, USER, type).expect(200);
        expect(user.text).not.toContain('adminOnlyProperty');
        expect(user.text).not.toContain('Is it safe?');
        expect(user.text).not.toContain('relatedDummy');
        expect(user.text).toContain('Theirs');
        const admin = await get(target, ADMIN, type).expect(200);
        for (const shown of ['adminOnlyProperty', 'Is it safe?', 'relatedDummy', 'related_dummies/1']) {
          expect(admin.text).toContain(shown);
        }
      }
    });

    test('an owner-only property (a rule answering with a promise): the owner sees it, '
      + 'the admin does not on a dummy they do not own', async () => {
      expect((await get('/api/secured_dummies/2', USER).expect(200)).body.ownerOnlyProperty).toBe('mine');
      const admin = await get('/api/secured_dummies', ADMIN).expect(200);
      const members = admin.body as Array<Record<string, unknown>>;
      expect(members.map((m) => 'ownerOnlyProperty' in m)).toEqual([false, false]);
      expect(members.map((m) => m.adminOnlyProperty)).toEqual(['Is it safe?', 'secret']);
    });

    test('JSON:API ?include of a relation the user may not read includes nothing', async () => {
      const path = '/api/secured_dummies/1?include=relatedDummy';
      const user = await get(path, USER, 'application/vnd.api+json').expect(200);
      expect(user.body.included).toBeUndefined();
      expect(user.body.data.relationships).toBeUndefined();
      const admin = await get(path, ADMIN, 'application/vnd.api+json').expect(200);
      expect(admin.body.included).toEqual([expect.objectContaining({ type: 'RelatedDummy' })]);
    });
  });

  describe('`security` on write: a value the user may not write is ignored', () => {
    test('PATCH: 200 with the other changes, the admin-only property kept (even one of the wrong type)', async () => {
      const res = await send('patch', '/api/secured_dummies/2', USER, { title: 'Renamed', adminOnlyProperty: 42 });
      expect(res.status).toBe(200);
      expect(res.body.title).toBe('Renamed');
      expect('adminOnlyProperty' in res.body).toBe(false);
      expect(await stored(2)).toMatchObject({ title: 'Renamed', adminOnlyProperty: 'secret' });
    });

    test('PUT, which replaces every property, keeps the admin-only ones the user sent or left out', async () => {
      const res = await send('put', '/api/secured_dummies/2', USER, {
        title: 'Replaced', owner: 'dunglas', adminOnlyProperty: 'Yes it is!',
      });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('adminOnlyProperty');
      expect(await stored(2)).toMatchObject({
        title: 'Replaced', adminOnlyProperty: 'secret', relatedDummy: '/api/related_dummies/1',
      });
    });

    test('POST: the user\'s admin-only value is not stored; the admin\'s is', async () => {
      const user = await send('post', '/api/secured_dummies', USER, {
        title: 'New', owner: 'dunglas', adminOnlyProperty: 'mine now',
      });
      expect(user.status).toBe(201);
      expect(await stored(user.body.id as number)).toMatchObject({ title: 'New', adminOnlyProperty: null });
      const admin = await send('post', '/api/secured_dummies', ADMIN, {
        title: 'Common Title', owner: 'dunglas', adminOnlyProperty: 'Is it safe?',
      });
      expect([admin.status, admin.body.adminOnlyProperty]).toEqual([201, 'Is it safe?']);
    });
  });

  describe('`securityPostDenormalize` on a property: reverted to its previous value', () => {
    test('a property writable only once another one allowed it (API Platform\'s properties depending on themselves)',
      async () => {
        const first = await send('patch', '/api/secured_dummies/2', USER, { canUpdateProperty: true, property: true });
        expect(first.status).toBe(200);
        expect([first.body.canUpdateProperty, first.body.property]).toEqual([true, false]);
        const second = await send('patch', '/api/secured_dummies/2', USER, { property: true });
        expect([second.status, second.body.property]).toEqual([200, true]);
      });

    test('the owner-only property is not changed by a write that gives the dummy away', async () => {
      const res = await send('patch', '/api/secured_dummies/2', USER, { owner: 'kitten', ownerOnlyProperty: 'stolen' });
      expect([res.status, res.body.owner]).toEqual([200, 'kitten']);
      const admin = await get('/api/secured_dummies/2', ADMIN).expect(200);
      expect(admin.body.owner).toBe('kitten');
      // kitten owns it now: the rule shows the kept value to no one but kitten; the admin checks the store
      const kept = await opened.store.provider.provideItem(resourcesOn(opened.store)[0].metadata, 2);
      expect(kept?.data.ownerOnlyProperty).toBe('mine');
    });
  });

  describe('`securityPostValidation` on an operation', () => {
    test('a user giving their dummy away: 403 with the message in problem details, nothing written', async () => {
      const res = await send('put', '/api/secured_dummies/2', USER, { title: 'Mine', owner: 'vincent' });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect([res.body.title, res.body.detail]).toEqual(['An error occurred', TRANSFER_MESSAGE]);
      expect((await stored(2)).owner).toBe('dunglas');
    });

    test('runs after validation: an invalid body is a 422, not a 403', async () => {
      const res = await send('put', '/api/secured_dummies/2', USER, { title: '', owner: 'vincent' });
      expect([res.status, res.body.violations?.[0]?.propertyPath]).toEqual([422, 'title']);
    });

    test('the admin may give it away; the user may keep it', async () => {
      expect((await send('put', '/api/secured_dummies/2', USER, { title: 'Kept', owner: 'dunglas' })).status).toBe(200);
      const res = await send('put', '/api/secured_dummies/2', ADMIN, { title: 'Given', owner: 'vincent' });
      expect([res.status, res.body.owner]).toEqual([200, 'vincent']);
    });

    test('an anonymous client is asked to sign in (401 with the challenge), after its body was validated', async () => {
      const res = await send('post', '/api/secured_dummies', '', { title: 'Anonymous', owner: 'nobody' });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic /);
      const invalid = await send('post', '/api/secured_dummies', '', { title: 'Anonymous' });
      expect([invalid.status, invalid.body.violations?.[0]?.propertyPath]).toEqual([422, 'owner']);
      expect((await get('/api/secured_dummies', ADMIN).expect(200)).body).toHaveLength(2);
    });
  });
});

describe('property security in the documentation and the configuration', () => {
  const state = new MemoryState();
  const employee = (properties?: Record<string, { security: string }>) => defineResource({
    shortName: 'Employee',
    schema: z.object({ id: readOnly(z.int()), name: z.string(), salary: z.number() }),
    provider: state, processor: state, ...(properties !== undefined ? { properties } : {}),
  });

  test('a secured property is documented as the others (as API Platform does), not required in the items sent',
    () => {
      const doc = (r: Resource) => createOpenApiDocument(describeApi([r]), { title: 'T' }) as unknown as {
        components: { schemas: Record<string, { properties: object; required?: string[] }> };
      };
      const open = doc(employee()).components.schemas.Employee;
      const secured = doc(employee({ salary: { security: 'ROLE_ADMIN' } })).components.schemas.Employee;
      expect(open.required).toContain('salary');
      expect(Object.keys(secured.properties)).toContain('salary');
      expect(secured.required).not.toContain('salary');
      expect(secured.required).toContain('name');
    });

  test.each([
    [{ salery: { security: 'ROLE_ADMIN' } }, 'resources.Employee.properties.salery', 'did you mean "salary"?'],
    [{ id: { security: 'ROLE_ADMIN' } }, 'resources.Employee.properties.id', 'unknown property of Employee'],
  ])('an unknown property in `properties` is a start-up error naming it', (properties, option, text) => {
    expect(() => employee(properties)).toThrow(KernelConfigError);
    expect(() => employee(properties)).toThrow(option);
    expect(() => employee(properties)).toThrow(text);
  });

  test('securityPostDenormalize on a readOnly property, securityPostValidation on a Get: start-up errors', () => {
    expect(() => defineResource({
      shortName: 'Employee', schema: z.object({ id: readOnly(z.int()), badge: readOnly(z.string()) }),
      provider: state, properties: { badge: { securityPostDenormalize: 'ROLE_ADMIN' } }, operations: [Get()],
    })).toThrow('resources.Employee.properties.badge.securityPostDenormalize');
    expect(() => defineResource({
      shortName: 'Employee', schema: z.object({ name: z.string() }), provider: state,
      operations: [Get({ securityPostValidation: 'ROLE_ADMIN' })],
    })).toThrow('only Post, Put and Patch read a body');
  });
});
