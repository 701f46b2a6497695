/**
 * A to-many relation (`toMany('Tag')`, issue 25 point 2) in the back office: shown read-only (the
 * related items' labels on the index and detail pages, no form control), and an edit of the
 * item's other fields keeps its links. On a MemoryState: the store semantics are the
 * conformance suite's (tests/api/state).
 */
import { z } from 'zod';
import { adminRoutes } from '../../src/admin';
import { defineResource, MemoryState, readOnly, toMany } from '../../src/api';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import { FormLoginAuthenticator } from '../../src/security/FormLoginAuthenticator';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { scaled } from '../helpers/timeScale';
import { formToken, parse, signedIn, textOf } from './ownBackOffice';

jest.setTimeout(scaled(30_000));

describe('a to-many relation in the back office', () => {
  let kernel: Kernel;
  let state: MemoryState;
  const tag = () => defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }),
    provider: state, processor: state,
  });
  const shelf = () => defineResource({
    shortName: 'Library',
    schema: z.object({ id: readOnly(z.int()), name: z.string().min(1), tags: toMany('Tag') }),
    provider: state, processor: state,
  });

  beforeEach(async () => {
    state = new MemoryState();
    const [t, s] = [tag(), shelf()];
    await state.create(t.metadata, { name: 'sf' });
    await state.create(t.metadata, { name: 'space' });
    await state.create(s.metadata, { name: 'Upstairs', tags: [1, 2] });
    kernel = createKernel({
      routes: adminRoutes({ resources: [t, s] }),
      debug: false, environment: 'test', secret: 'a test secret of at least thirty-two characters',
      session: { store: 'memory' },
      security: {
        firewalls: [{
          name: 'admin', pattern: '^/admin',
          provider: new InMemoryUserProvider({ users: { alice: { password: 'alice', roles: ['ROLE_ADMIN'] } } }),
          authenticators: [new FormLoginAuthenticator({ loginPath: '/admin/login', defaultTargetPath: '/admin' })],
        }],
        accessControl: [{ path: '^/admin/login$', roles: ['PUBLIC_ACCESS'] }, { path: '^/admin', roles: ['ROLE_ADMIN'] }],
      },
    });
  });
  afterEach(() => kernel.close());

  test('index and detail pages name the related items; the form has no control for them; an edit keeps them', async () => {
    const alice = await signedIn(kernel, 'alice');
    const index = parse((await alice.get('/admin/libraries').expect(200)).text);
    expect(textOf(index('tbody tr').first())).toContain('sf (#1), space (#2)');
    const detail = parse((await alice.get('/admin/libraries/1').expect(200)).text);
    expect(textOf(detail('body'))).toContain('sf (#1), space (#2)');
    const form = await alice.get('/admin/libraries/1/edit').expect(200);
    expect(parse(form.text)('[name="tags"]').toArray().filter((e) => !('disabled' in (e.attribs ?? {})))
      .filter((e) => (e.attribs ?? {}).readonly === undefined)).toHaveLength(0);
    const version = parse(form.text)('input[name="_version"]').val();
    await alice.post('/admin/libraries/1/edit').type('form')
      .send({ _token: formToken(form.text), _version: version, name: 'Downstairs' }).expect(303);
    const stored = await state.provideItem(shelf().metadata, 1);
    expect(stored?.data).toEqual({ name: 'Downstairs', tags: [1, 2] });
  });
});
