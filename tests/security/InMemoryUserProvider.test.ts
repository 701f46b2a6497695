import bcrypt from 'bcryptjs';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';

describe('InMemoryUserProvider', () => {
  const hash = bcrypt.hashSync('s3cret', 4);
  const provider = new InMemoryUserProvider({ users: { Admin: { password: 'admin', roles: ['ROLE_ADMIN'] }, bob: { password: hash } }, cost: 4 });

  test('checkPassword hashes plaintext passwords at construction and verifies them', async () => {
    expect(await provider.checkPassword('admin', 'admin')).toEqual({ identifier: 'Admin', roles: ['ROLE_ADMIN'] });
    expect(await provider.checkPassword('admin', 'Admin')).toBeNull();
  });

  test('accepts bcrypt hashes as they are', async () => {
    expect(await provider.checkPassword('bob', 's3cret')).toEqual({ identifier: 'bob', roles: [] });
    expect(await provider.checkPassword('bob', hash)).toBeNull();
  });

  test('unknown users and over-long passwords are null', async () => {
    expect(await provider.checkPassword('nobody', 'admin')).toBeNull();
    expect(await provider.checkPassword('admin', 'a'.repeat(4097))).toBeNull();
  });

  test('loadUserByIdentifier is case-insensitive and returns frozen users', async () => {
    const user = await provider.loadUserByIdentifier('ADMIN');
    expect(user?.identifier).toBe('Admin');
    expect(Object.isFrozen(user)).toBe(true);
    expect(await provider.loadUserByIdentifier('nobody')).toBeNull();
  });

  test('uses cost 8 by default', async () => {
    const p = new InMemoryUserProvider({ users: { a: { password: 'a' } } });
    const stored = (p as unknown as { users: Map<string, { hash: string }> }).users.get('a')!.hash;
    expect(stored).toMatch(/^\$2b\$08\$/);
  });

  test.each([
    [{ users: { a: { password: 1 } } }, /^Invalid option "users\.a\.password": expected a bcrypt hash or a plaintext password/],
    [{ users: { a: { password: 'a', role: [] } } }, 'Invalid option "users.a.role": unknown option; did you mean "roles"?'],
    [{ users: { a: { password: 'a' }, A: { password: 'b' } } }, /^Invalid option "users\.A": identifiers are case-insensitive/],
    [{ users: {}, cost: 3 }, 'Invalid option "cost": expected an integer ≥ 4 (got 3).'],
  ])('rejects %j', (options, message) => {
    expect(() => new InMemoryUserProvider(options as never)).toThrow(message);
  });
});
