import request from 'supertest';
import { AccessTokenAuthenticator } from '../../src/security/AccessTokenAuthenticator';
import { createSecurityUser } from '../../src/security/SecurityUser';
import { securedKernel, testUsers } from './support';

describe('AccessTokenAuthenticator', () => {
  const tokens: Record<string, string> = { 'alice-token': 'alice', 'ghost-token': 'ghost' };
  const kernel = securedKernel({
    firewalls: [{
      name: 'api', pattern: '^/api', stateless: true, provider: testUsers(),
      authenticators: [new AccessTokenAuthenticator({
        realm: 'api',
        lookup: (token) => (token === 'robot-token' ? createSecurityUser('robot', ['ROLE_ROBOT']) : tokens[token] ?? null),
      })],
    }],
    accessControl: [{ path: '^/api/books', methods: ['POST'], roles: ['ROLE_USER', 'ROLE_ROBOT'] }],
  });

  test('a known token authenticates its user, loaded by the provider', async () => {
    const res = await request(kernel).get('/api/me').set('Authorization', 'Bearer alice-token');
    expect(res.body.user).toBe('alice');
    expect(res.body.security.authenticator).toBe('access_token');
  });

  test('the lookup may return the user itself', async () => {
    const res = await request(kernel).post('/api/books').set('Authorization', 'Bearer robot-token');
    expect([res.status, res.headers['x-security-user']]).toEqual([201, 'robot']);
  });

  test('an unknown token, or one whose user is gone, is a 401 invalid_token with an empty body', async () => {
    for (const token of ['nope', 'ghost-token']) {
      const res = await request(kernel).get('/api/books').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api",error="invalid_token",error_description="Invalid credentials."');
      expect(res.text).toBe('');
    }
  });

  test('as entry point it challenges with Bearer and the realm', async () => {
    const res = await request(kernel).post('/api/books');
    expect([res.status, res.headers['www-authenticate']]).toEqual([401, 'Bearer realm="api"']);
  });

  test('a header that is not a bearer token is not for it', async () => {
    const res = await request(kernel).get('/api/me').set('Authorization', 'Bearer two words');
    expect([res.status, res.body.user]).toEqual([200, null]);
  });

  test('rejects a lookup that is not a function, and a realm with a quote', () => {
    expect(() => new AccessTokenAuthenticator({ lookup: 'tokens' as never })).toThrow(/^Invalid option "lookup": expected a function/);
    expect(() => new AccessTokenAuthenticator({ lookup: () => null, realm: 'a"b' })).toThrow('Invalid option "realm": expected printable ASCII without " or \\ (got "a\\"b").');
  });
});
