import request from 'supertest';
import { firewall } from '../../src/security/firewall';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import { AccessTokenAuthenticator } from '../../src/security/AccessTokenAuthenticator';
import type { FirewallOptions } from '../../src/security/FirewallOptions';
import type { SecurityState } from '../../src/security/SecurityState';
import { basic, HIERARCHY, securedKernel, testUsers } from './support';

const provider = testUsers();

/** The oracle's security.yaml, plus a rule for writes under /api/books. */
function oracleLike(): FirewallOptions {
  return {
    firewalls: [{ name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()] }],
    accessControl: [
      { path: '^/admin', roles: ['ROLE_ADMIN'] },
      { path: '^/api/books', methods: ['POST', 'PUT', 'PATCH', 'DELETE'], roles: ['ROLE_USER'] },
      { path: '^/api', roles: ['PUBLIC_ACCESS'] },
    ],
    roleHierarchy: HIERARCHY,
  };
}

describe('firewall(options)', () => {
  const kernel = securedKernel(oracleLike());
  const who = { anonymous: undefined, user: basic('alice', 'alice'), admin: basic('admin', 'admin') } as const;

  describe('status matrix: who × method × path', () => {
    const cells: Array<[keyof typeof who, string, string, number]> = [
      ['anonymous', 'GET', '/admin', 401], ['user', 'GET', '/admin', 403], ['admin', 'GET', '/admin', 200],
      // access_control ^/admin applies before routing: the 405 and the 404 only show to the admin
      ['anonymous', 'POST', '/admin', 401], ['user', 'POST', '/admin', 403], ['admin', 'POST', '/admin', 405],
      ['anonymous', 'GET', '/admin/nope', 401], ['user', 'GET', '/admin/nope', 403], ['admin', 'GET', '/admin/nope', 404],
      ['anonymous', 'GET', '/api/books', 200], ['user', 'GET', '/api/books', 200], ['admin', 'GET', '/api/books', 200],
      ['anonymous', 'POST', '/api/books', 401], ['user', 'POST', '/api/books', 201], ['admin', 'POST', '/api/books', 201],
      ['anonymous', 'DELETE', '/api/books', 401], ['user', 'DELETE', '/api/books', 405], ['admin', 'DELETE', '/api/books', 405],
      ['anonymous', 'GET', '/nope', 404], ['user', 'GET', '/nope', 404], ['admin', 'GET', '/nope', 404],
    ];
    test.each(cells)('%s %s %s → %i', async (as, method, path, status) => {
      const req = request(kernel)[method.toLowerCase() as 'get'](path);
      if (who[as] !== undefined) req.set('Authorization', who[as]);
      const res = await req;
      expect(res.status).toBe(status);
      if (status === 401) expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
      if (status === 403) expect(res.headers['x-debug-exception']).toBe('Access%20Denied.');
      // the firewall ran before routing, also for 404 and 405: the layer after it saw the user
      if (status !== 401 && status !== 403) expect(res.headers['x-security-user']).toBe(as === 'anonymous' ? 'anonymous' : as === 'user' ? 'alice' : 'admin');
    });
  });

  describe('oracle parity (FINDINGS §7)', () => {
    test('GET /admin anonymous is a 401 with the Basic challenge, an empty text/html body and no exception', async () => {
      const res = await request(kernel).get('/admin');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
      expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
      expect(res.text).toBe('');
      expect(res.headers['x-debug-exception']).toBeUndefined();
    });

    test('the 401 stays empty for JSON clients (ser_401_json)', async () => {
      const res = await request(kernel).get('/admin').set('Accept', 'application/json');
      expect(res.status).toBe(401);
      expect(res.text).toBe('');
      expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
    });

    test('admin:admin gets 200 "admin dashboard"', async () => {
      const res = await request(kernel).get('/admin').set('Authorization', 'Basic YWRtaW46YWRtaW4=');
      expect(res.status).toBe(200);
      expect(res.text).toBe('admin dashboard');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    });

    test('a wrong password is a 401 with the challenge, on protected and public paths alike', async () => {
      for (const path of ['/admin', '/api/books', '/nope']) {
        const res = await request(kernel).get(path).set('Authorization', 'Basic YWRtaW46bm9wZQ==');
        expect([path, res.status, res.headers['www-authenticate'], res.text]).toEqual([path, 401, 'Basic realm="Secured Area"', '']);
      }
    });

    test('a header that is not Basic credentials leaves the client anonymous', async () => {
      const res = await request(kernel).get('/api/books').set('Authorization', 'Basic !!!');
      expect(res.status).toBe(200);
      expect(res.headers['x-security-user']).toBe('anonymous');
    });
  });

  describe('req.security', () => {
    test('names the firewall, the user, the roles with the hierarchy, the authenticator and the decisions', async () => {
      const res = await request(kernel).get('/api/me').set('Authorization', basic('admin', 'admin'));
      const security = res.body.security as SecurityState;
      expect(res.body.user).toBe('admin');
      expect(security).toEqual({
        firewall: 'main',
        user: { identifier: 'admin', roles: ['ROLE_ADMIN'] },
        roles: ['ROLE_ADMIN', 'ROLE_USER'],
        authenticator: 'http_basic',
        decisions: [{ source: 'access_control', rule: 'accessControl[2] (path ^/api)', attributes: ['PUBLIC_ACCESS'], result: 'granted' }],
      });
    });

    test('the password hash is never part of the user', async () => {
      const res = await request(kernel).get('/api/me').set('Authorization', basic('admin', 'admin'));
      expect(JSON.stringify(res.body)).not.toMatch(/\$2[aby]\$/);
    });

    test('user identifiers are case-insensitive, as in Symfony\'s in-memory provider', async () => {
      const res = await request(kernel).get('/admin').set('Authorization', basic('ADMIN', 'admin'));
      expect(res.status).toBe(200);
    });
  });

  describe('matching', () => {
    test('path rules match the decoded path info', async () => {
      const res = await request(kernel).get('/%61dmin');
      expect(res.status).toBe(401);
    });

    test('the effective method (X-HTTP-Method-Override) is the one rules see', async () => {
      const res = await request(kernel).post('/api/books').set('X-HTTP-Method-Override', 'GET');
      expect(res.status).toBe(200);
    });

    test('the first matching firewall wins; security: false turns everything off', async () => {
      const k = securedKernel({
        firewalls: [
          { name: 'dev', pattern: '^/api/me', security: false },
          { name: 'api', pattern: '^/api', stateless: true, provider, authenticators: [new AccessTokenAuthenticator({ lookup: (t) => (t === 'alice-token' ? 'alice' : null) })] },
          { name: 'main', provider, authenticators: [new HttpBasicAuthenticator()] },
        ],
        accessControl: [{ path: '^/', roles: ['IS_AUTHENTICATED'] }],
      });
      const me = await request(k).get('/api/me').set('Authorization', basic('admin', 'admin'));
      expect([me.status, me.body.security.firewall, me.body.user]).toEqual([200, 'dev', null]);
      const books = await request(k).get('/api/books').set('Authorization', 'Bearer alice-token');
      expect([books.status, books.headers['x-security-user']]).toEqual([200, 'alice']);
      const basicOnApi = await request(k).get('/api/books').set('Authorization', basic('admin', 'admin'));
      expect([basicOnApi.status, basicOnApi.headers['www-authenticate']]).toEqual([401, 'Bearer']);
      const admin = await request(k).get('/admin').set('Authorization', basic('admin', 'admin'));
      expect(admin.status).toBe(200);
    });

    test('ips, host and allowIf rules (roles OR allowIf, as Symfony)', async () => {
      const k = securedKernel({
        firewalls: [{ name: 'main', provider, authenticators: [new HttpBasicAuthenticator()] }],
        accessControl: [
          { path: '^/admin', ips: ['10.0.0.0/8'], roles: ['PUBLIC_ACCESS'] },
          { path: '^/admin', host: '^intranet\\.', roles: ['ROLE_ADMIN'], allowIf: (req) => req.headers['x-secure-access'] === 'yes' },
          { path: '^/admin', roles: ['ROLE_ADMIN'] },
        ],
      }, { trustedProxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] });
      const fromLan = await request(k).get('/admin').set('X-Forwarded-For', '10.1.2.3');
      expect(fromLan.status).toBe(200);
      const fromOutside = await request(k).get('/admin').set('X-Forwarded-For', '203.0.113.9');
      expect(fromOutside.status).toBe(401);
      const header = await request(k).get('/admin').set('Host', 'INTRANET.example.com').set('X-Secure-Access', 'yes');
      expect(header.status).toBe(200);
      const noHeader = await request(k).get('/admin').set('Host', 'intranet.example.com');
      expect(noHeader.status).toBe(401);
    });

    test('without an entry point, denied anonymous clients get the kernel\'s 401 "Full authentication is required…"', async () => {
      const k = securedKernel({ firewalls: [{ name: 'main' }], accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }] });
      const res = await request(k).get('/admin').set('Accept', 'application/json');
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body.detail).toBe('Full authentication is required to access this resource.');
    });

    test('an invalid Host is left to the router (400), before any authentication', async () => {
      const res = await request(kernel).get('/admin').set('Host', 'bad_host!');
      expect(res.status).toBe(400);
    });
  });
});

describe('firewall(options) validation', () => {
  const valid = (): FirewallOptions => ({ firewalls: [{ name: 'main', provider, authenticators: [new HttpBasicAuthenticator()] }] });
  const cases: Array<[string, (o: FirewallOptions) => void, RegExp | string]> = [
    ['a bad pattern', (o) => { o.firewalls[0].pattern = '^/(admin'; }, /^Invalid option "firewalls\[0\]\.pattern": not a valid regular expression: .* \(got "\^\/\(admin"\)\.$/],
    ['a typo in a firewall key', (o) => { (o.firewalls[0] as unknown as Record<string, unknown>).statless = true; }, 'Invalid option "firewalls[0].statless": unknown option; did you mean "stateless"?'],
    ['a missing provider', (o) => { delete o.firewalls[0].provider; }, /^Invalid option "firewalls\[0\]\.provider": a firewall with authenticators needs a UserProvider/],
    ['duplicate names', (o) => { o.firewalls.push({ name: 'main' }); }, 'Invalid option "firewalls[1].name": another firewall has this name (got "main").'],
    ['no firewall', (o) => { o.firewalls = []; }, /^Invalid option "firewalls": expected at least one firewall/],
    ['an unknown entry point', (o) => { o.firewalls[0].entryPoint = 'form_login'; }, 'Invalid option "firewalls[0].entryPoint": no authenticator of this firewall named so can be an entry point (can: http_basic) (got "form_login").'],
    ['two possible entry points', (o) => { o.firewalls[0].authenticators?.push(new AccessTokenAuthenticator({ lookup: () => null })); }, /^Invalid option "firewalls\[0\]\.entryPoint": several authenticators can be the entry point \(http_basic, access_token\): name one/],
    ['a bad CIDR', (o) => { o.accessControl = [{ path: '^/', ips: ['10.0.0.0/99'] }]; }, /^Invalid option "accessControl\[0\]\.ips": not an IP address or CIDR: /],
    ['a typo in a rule', (o) => { o.accessControl = [{ path: '^/', role: ['ROLE_USER'] } as never]; }, 'Invalid option "accessControl[0].role": unknown option; did you mean "roles"?'],
    ['a lowercase-less method', (o) => { o.firewalls[0].methods = ['GE T']; }, 'Invalid option "firewalls[0].methods[0]": expected an HTTP method such as "GET" (got "GE T").'],
    ['a bad hierarchy', (o) => { o.roleHierarchy = { ROLE_ADMIN: 'ROLE_USER' as never }; }, 'Invalid option "roleHierarchy.ROLE_ADMIN": expected an array (got "ROLE_USER").'],
    ['zero attempts', (o) => { o.throttling = { maxAttempts: 0, store: new MemoryThrottleStore() }; }, 'Invalid option "throttling.maxAttempts": expected an integer ≥ 1 (got 0).'],
    ['a throttling without a store', (o) => { o.throttling = {} as never; }, /^Invalid option "throttling\.store": expected a ThrottleStore/],
    ['an authenticator that is not one', (o) => { o.firewalls[0].authenticators = [{} as never]; }, /^Invalid option "firewalls\[0\]\.authenticators\[0\]": expected an Authenticator/],
  ];
  test.each(cases)('rejects %s at construction, naming the option', (_name, mutate, message) => {
    const o = valid();
    mutate(o);
    expect(() => firewall(o)).toThrow(message);
  });

  test('accepts the oracle\'s configuration', () => {
    expect(typeof firewall(oracleLike())).toBe('function');
  });
});
