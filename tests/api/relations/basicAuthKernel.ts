/**
 * The kernel the subresource tests serve their resources with: HTTP Basic users on a stateless
 * firewall, access checks (`security`, `Link.security`), body parsing and `securityPostDenormalize`.
 * Not a test file itself.
 */
import type { Resource } from '../../../src/api';
import { apiRoutes } from '../../../src/api';
import { bodyParsing } from '../../../src/http/body/bodyParsing';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { accessCheck } from '../../../src/security/accessCheck';
import { firewall } from '../../../src/security/firewall';
import { HttpBasicAuthenticator } from '../../../src/security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../../../src/security/InMemoryUserProvider';
import { postDenormalizeCheck } from '../../../src/security/postDenormalizeCheck';

/** The `Authorization` header of a user whose password is its name. */
export const basic = (user: string): string => `Basic ${Buffer.from(`${user}:${user}`).toString('base64')}`;

/**
 * @param resources - the API's resources
 * @param roles - each user's roles (its password is its name)
 */
export function basicAuthKernel(resources: readonly Resource[], roles: Record<string, string[]>): Kernel {
  const users = new InMemoryUserProvider({
    users: Object.fromEntries(Object.entries(roles).map(([name, r]) => [name, { password: name, roles: r }])),
    cost: 4,
  });
  return createKernel({
    routes: apiRoutes({ resources }),
    debug: false,
    layers: {
      firewall: firewall({
        firewalls: [{ name: 'api', pattern: '^/', stateless: true, provider: users,
          authenticators: [new HttpBasicAuthenticator()] }],
      }),
    },
    routeHandlers: [accessCheck(), bodyParsing(), postDenormalizeCheck()],
  });
}
