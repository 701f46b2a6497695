import { z } from 'zod';
import { objectWith, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { AccessMap, accessControlSchema } from './AccessMap';
import type { AuthenticationEntryPoint, Authenticator } from './Authenticator';
import { LoginThrottler, loginThrottlingSchema } from './LoginThrottler';
import { LogoutListener, logoutSchema } from './LogoutListener';
import { buildRequestMatcher, methodsSchema, regexSchema } from './RequestMatcher';
import { RoleHierarchy, roleHierarchySchema } from './RoleHierarchy';
import type { UserProvider } from './UserProvider';

const AUTHENTICATOR = 'an Authenticator (name, supports(), authenticate()), e.g. new HttpBasicAuthenticator()';
const NAME = 'expected a name of letters, digits, "_", "-" or "."';
const NEEDS_PROVIDER = 'a firewall with authenticators needs a UserProvider to check passwords and load users, '
  + 'e.g. new InMemoryUserProvider({ users: … })';
const NO_FIREWALL = 'expected at least one firewall, e.g. '
  + '[{ name: "main", authenticators: [new HttpBasicAuthenticator()], provider }]';

const INTERACTIVE_STATELESS = 'an interactive login (form_login) keeps the user in the session, which a stateless '
  + 'firewall never reads: the login would be forgotten at once; remove stateless: true';

/** An authenticator, by duck typing (so instances from other realms and copies of the package pass). */
const authenticator = objectWith<Authenticator>(['supports', 'authenticate'], AUTHENTICATOR)
  .refine((a) => typeof a.name === 'string', { error: `expected ${AUTHENTICATOR}` });

/**
 * The entry point among a firewall's authenticators: the named one, the only one that can be one,
 * or the object given.
 * @param fail - called with the message when there is none to pick
 */
function entryPointOf(
  value: string | AuthenticationEntryPoint | undefined,
  authenticators: readonly Authenticator[],
  fail: (what: string) => void,
): AuthenticationEntryPoint | undefined {
  const candidates = authenticators
    .filter((a): a is Authenticator & AuthenticationEntryPoint => typeof a.start === 'function');
  const names = candidates.map((a) => a.name).join(', ');
  if (value === undefined) {
    if (candidates.length > 1) fail(`several authenticators can be the entry point (${names}): name one`);
    return candidates[0];
  }
  if (typeof value !== 'string') return value;
  const found = candidates.find((a) => a.name === value);
  if (found === undefined) {
    fail(`no authenticator of this firewall named so can be an entry point (can: ${names || 'none'})`);
  }
  return found;
}

/**
 * One firewall (Symfony `security.firewalls.<name>`): {@link FirewallConfig} is its input,
 * {@link ResolvedFirewall} its output.
 */
export const firewallConfigSchema = optionsObject({
  /** Its name: letters, digits, `_`, `-`, `.`; also the session key suffix (`_security_<name>`). @example 'main' */
  name: z.string({ error: NAME }).regex(/^[A-Za-z0-9_.-]+$/, { error: NAME }),
  /** Regular expression searched in the decoded path info; absent matches every path. @example '^/api' */
  pattern: regexSchema('').optional(),
  /** Regular expression searched in the host, case-insensitively when a string. */
  host: regexSchema('i').optional(),
  /** Methods it applies to; absent means all. */
  methods: methodsSchema.optional(),
  /** `false` turns security off for matching requests: no authentication, no access control. @default true */
  security: z.boolean().default(true),
  /** Stateless firewalls neither read nor write the session: credentials come with each request. @default false */
  stateless: z.boolean().default(false),
  /** Authenticators, tried in order on requests they support. @default [] */
  authenticators: z.array(authenticator, { error: 'expected an array' }).default([]),
  /** Checks passwords and (re)loads users; required when there are authenticators. */
  provider: objectWith<UserProvider>(['loadUserByIdentifier', 'checkPassword'],
    'a UserProvider (loadUserByIdentifier(), checkPassword())').optional(),
  /**
   * Who asks anonymous clients to authenticate: an authenticator's name (`'http_basic'`,
   * `'access_token'`) or an entry point. @default the one authenticator that can be one
   */
  entryPoint: z.union([z.string(), objectWith<AuthenticationEntryPoint>(['start'], 'an entry point')], {
    error: 'expected an authenticator name such as "http_basic" or an object with start(req, res)',
  }).optional(),
  /**
   * Logout (Symfony `logout: { path, target }` with CSRF protection): `POST <path>` with the
   * session's CSRF token ends the session. Off when absent. @example { path: '/admin/logout', target: '/admin/login' }
   */
  logout: logoutSchema.optional(),
}).transform((f, ctx) => {
  const fail = (key: string) => (message: string): void => {
    ctx.addIssue({ code: 'custom', path: [key], message, input: undefined });
  };
  if (f.security && f.authenticators.length > 0 && f.provider === undefined) fail('provider')(NEEDS_PROVIDER);
  if (f.stateless && f.authenticators.some((a) => a.interactive === true)) fail('stateless')(INTERACTIVE_STATELESS);
  return Object.freeze({
    name: f.name,
    /** What requests it handles: `pattern`, `host` and `methods`, compiled. */
    matcher: buildRequestMatcher({ path: f.pattern, host: f.host, methods: f.methods }, 'pattern'),
    security: f.security,
    stateless: f.stateless,
    authenticators: Object.freeze(f.authenticators),
    provider: f.provider,
    entryPoint: entryPointOf(f.entryPoint, f.authenticators, fail('entryPoint')),
    /** Answers `POST <logout.path>`, when configured. */
    logout: f.logout === undefined ? undefined : new LogoutListener(f.logout),
    /** Where a stateful firewall keeps the user identifier in the session. */
    sessionKey: `_security_${f.name}`,
  });
});

/**
 * The options of {@link firewall}, validated once at construction: the public
 * {@link FirewallOptions} is this schema's input, {@link ResolvedFirewallOptions} its output (the
 * firewalls compiled, the access map, role hierarchy and login throttler built).
 */
export const firewallOptionsSchema = optionsObject({
  /** Firewalls, in order: the first whose `pattern`, `host` and `methods` match handles the request. */
  firewalls: z.array(firewallConfigSchema, { error: 'expected an array' }).min(1, { error: NO_FIREWALL })
    .superRefine((firewalls, ctx) => firewalls.forEach((f, i) => {
      if (firewalls.findIndex((g) => g.name === f.name) === i) return;
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'another firewall has this name', input: f.name });
    })),
  /** Access rules, in order: the first that matches decides (Symfony `access_control`). @default [] */
  accessControl: accessControlSchema.optional(),
  /** Roles included in other roles. @default {} @example { ROLE_ADMIN: ['ROLE_USER'] } */
  roleHierarchy: roleHierarchySchema.optional(),
  /** Login throttling for password logins (HTTP Basic, JSON login); off when absent. */
  throttling: loginThrottlingSchema.optional(),
}).transform((o) => Object.freeze({
  firewalls: Object.freeze(o.firewalls),
  accessMap: new AccessMap(o.accessControl),
  roleHierarchy: new RoleHierarchy(o.roleHierarchy),
  throttler: o.throttling === undefined ? undefined : new LoginThrottler(o.throttling),
}));

/** One firewall (Symfony `security.firewalls.<name>`). */
export type FirewallConfig = z.input<typeof firewallConfigSchema>;

/** Options of {@link firewall}. */
export type FirewallOptions = z.input<typeof firewallOptionsSchema>;

/** One {@link FirewallConfig}, validated. Frozen. */
export type ResolvedFirewall = z.output<typeof firewallConfigSchema>;

/** {@link FirewallOptions} after validation. Frozen. */
export type ResolvedFirewallOptions = z.output<typeof firewallOptionsSchema>;

/**
 * Validates {@link FirewallOptions} once, at construction.
 * @param prefix - where the options sit, e.g. `security` in the kernel's options @default '' (the root)
 * @throws KernelConfigError naming the first bad option with its full path, e.g.
 *   `Invalid option "firewalls[0].pattern": not a valid regular expression: … (got "^/(admin").`
 */
export function resolveFirewallOptions(options: FirewallOptions, prefix = ''): ResolvedFirewallOptions {
  return parseOptions(firewallOptionsSchema, options, prefix);
}

/**
 * The first firewall that logs people in through a form and keeps them in the session: security
 * on, not stateless, an authenticator with `interactive: true` (Symfony
 * `InteractiveAuthenticatorInterface`). The kernel refuses to start such a firewall without a
 * session layer, where every login would be forgotten at once.
 * @param options - the firewall options as given (already checked by {@link firewallOptionsSchema})
 * @returns the firewall's index and name and the authenticator's name, or undefined when none does
 */
export function interactiveLogin(
  options: FirewallOptions | undefined,
): { index: number; name: string; authenticator: string } | undefined {
  const firewalls = options?.firewalls ?? [];
  for (let index = 0; index < firewalls.length; index++) {
    const f = firewalls[index];
    if (f.security === false || f.stateless === true) continue;
    const login = (f.authenticators ?? []).find((a) => a.interactive === true);
    if (login !== undefined) return { index, name: f.name, authenticator: login.name };
  }
  return undefined;
}
