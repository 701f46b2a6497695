/**
 * An embeddable value object (`embeddable()`, issue 25 point 3) in the back office: the index
 * shows a readable summary of its fields (not JSON), the detail page lists them as label/value
 * rows, formatted as their own fields are (a date in the request's locale). On a MemoryState.
 */
import { z } from 'zod';
import { adminRoutes } from '../../src/admin';
import { defineResource, embeddable, MemoryState, readOnly } from '../../src/api';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import { FormLoginAuthenticator } from '../../src/security/FormLoginAuthenticator';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { scaled } from '../helpers/timeScale';
import { parse, signedIn, textOf } from './ownBackOffice';

jest.setTimeout(scaled(30_000));

describe('an embeddable in the back office', () => {
  let kernel: Kernel;
  let state: MemoryState;
  const customer = () => defineResource({
    shortName: 'Customer',
    schema: z.object({
      id: readOnly(z.int()),
      name: z.string().min(1),
      address: embeddable(z.object({
        street: z.string().min(1), city: z.string().min(1), zip: z.int().optional(), since: z.iso.date().optional(),
      }), { name: 'Address' }).nullable(),
    }),
    provider: state, processor: state,
  });

  beforeEach(async () => {
    state = new MemoryState();
    const c = customer();
    await state.create(c.metadata, {
      name: 'Ann', address: { street: '1 rue de Rivoli', city: 'Paris', zip: null, since: '2020-02-29' },
    });
    await state.create(c.metadata, { name: 'Bob', address: null });
    kernel = createKernel({
      routes: adminRoutes({ resources: [c] }),
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

  test('the index summarises the fields with a value; the detail page lists each field with its label', async () => {
    const alice = await signedIn(kernel, 'alice');
    const index = parse((await alice.get('/admin/customers').expect(200)).text);
    const rows = index('tbody tr').toArray().map((r) => textOf(index(r)));
    expect(rows[0]).toContain('1 rue de Rivoli, Paris, Feb 29, 2020');
    expect(rows[0]).not.toContain('{');
    const detail = parse((await alice.get('/admin/customers/1').expect(200)).text);
    const fields = detail('dl.embedded > div').toArray()
      .map((d) => [textOf(detail(d).find('dt')), textOf(detail(d).find('dd'))]);
    expect(fields).toEqual([['Street', '1 rue de Rivoli'], ['City', 'Paris'], ['Zip', '—'],
      ['Since', 'Feb 29, 2020']]);
    // no address: the empty value, no rows
    const bob = parse((await alice.get('/admin/customers/2').expect(200)).text);
    expect(bob('dl.embedded')).toHaveLength(0);
  });
});
