import { AccessControlRule, AccessMap } from './AccessMap';
import type { AuthenticationEntryPoint, Authenticator } from './Authenticator';
import { LoginThrottler, LoginThrottlingOptions } from './LoginThrottler';
import { compileRequestMatcher, RequestMatcher } from './RequestMatcher';
import { RoleHierarchy, RoleHierarchyMap } from './RoleHierarchy';
import type { UserProvider } from './UserProvider';
import { arrayOption, booleanOption, invalid, knownKeys, objectOption, stringOption } from '../config/optionValidation';

/** One firewall (Symfony `security.firewalls.<name>`). */
export interface FirewallConfig {
  /** Its name: letters, digits, `_`, `-`, `.`; also the session key suffix (`_security_<name>`). @example 'main' */
  name: string;
  /** Regular expression searched in the decoded path info; absent matches every path. @example '^/api' */
  pattern?: RegExp | string;
  /** Regular expression searched in the host, case-insensitively when a string. */
  host?: RegExp | string;
  /** Methods it applies to; absent means all. */
  methods?: string[];
  /** `false` turns security off for matching requests: no authentication, no access control. @default true */
  security?: boolean;
  /** Stateless firewalls neither read nor write the session: credentials come with each request. @default false */
  stateless?: boolean;
  /** Authenticators, tried in order on requests they support. @default [] */
  authenticators?: Authenticator[];
  /** Checks passwords and (re)loads users; required when there are authenticators. */
  provider?: UserProvider;
  /**
   * Who asks anonymous clients to authenticate: an authenticator's name (`'http_basic'`,
   * `'access_token'`) or an entry point. @default the one authenticator that can be one
   */
  entryPoint?: string | AuthenticationEntryPoint;
}

/** Options of {@link firewall}. */
export interface FirewallOptions {
  /** Firewalls, in order: the first whose `pattern`, `host` and `methods` match handles the request. */
  firewalls: FirewallConfig[];
  /** Access rules, in order: the first that matches decides (Symfony `access_control`). @default [] */
  accessControl?: AccessControlRule[];
  /** Roles included in other roles. @default {} @example { ROLE_ADMIN: ['ROLE_USER'] } */
  roleHierarchy?: RoleHierarchyMap;
  /** Login throttling for password logins (HTTP Basic, JSON login); off when absent. */
  throttling?: LoginThrottlingOptions;
}

/** One {@link FirewallConfig}, validated. */
export interface ResolvedFirewall {
  readonly name: string;
  readonly matcher: RequestMatcher;
  readonly security: boolean;
  readonly stateless: boolean;
  readonly authenticators: readonly Authenticator[];
  readonly provider?: UserProvider;
  readonly entryPoint?: AuthenticationEntryPoint;
  /** Where a stateful firewall keeps the user identifier in the session. */
  readonly sessionKey: string;
}

/** {@link FirewallOptions} after validation. Frozen. */
export interface ResolvedFirewallOptions {
  readonly firewalls: readonly ResolvedFirewall[];
  readonly accessMap: AccessMap;
  readonly roleHierarchy: RoleHierarchy;
  readonly throttler?: LoginThrottler;
}

const FIREWALL_KEYS = ['name', 'pattern', 'host', 'methods', 'security', 'stateless', 'authenticators', 'provider', 'entryPoint'];

function resolveAuthenticator(value: unknown, option: string): Authenticator {
  const a = value as Partial<Authenticator> | null;
  if (typeof a !== 'object' || a === null || typeof a.name !== 'string' || typeof a.supports !== 'function' || typeof a.authenticate !== 'function') {
    throw invalid(option, 'expected an Authenticator (name, supports(), authenticate()), e.g. new HttpBasicAuthenticator()', value);
  }
  return a as Authenticator;
}

function resolveEntryPoint(value: unknown, authenticators: readonly Authenticator[], option: string): AuthenticationEntryPoint | undefined {
  const candidates = authenticators.filter((a) => typeof a.start === 'function') as Array<Authenticator & AuthenticationEntryPoint>;
  if (value === undefined) {
    if (candidates.length > 1) {
      throw invalid(option, `several authenticators can be the entry point (${candidates.map((a) => a.name).join(', ')}): name one`, value);
    }
    return candidates[0];
  }
  if (typeof value === 'string') {
    const found = candidates.find((a) => a.name === value);
    if (found === undefined) {
      throw invalid(option, `no authenticator of this firewall named so can be an entry point (can: ${candidates.map((a) => a.name).join(', ') || 'none'})`, value);
    }
    return found;
  }
  if (typeof value === 'object' && value !== null && typeof (value as AuthenticationEntryPoint).start === 'function') return value as AuthenticationEntryPoint;
  throw invalid(option, 'expected an authenticator name such as "http_basic" or an object with start(req, res)', value);
}

function resolveFirewall(value: unknown, option: string): ResolvedFirewall {
  const f = objectOption(value, option);
  knownKeys(f, FIREWALL_KEYS, option);
  const name = stringOption(f.name, `${option}.name`);
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw invalid(`${option}.name`, 'expected letters, digits, "_", "-" or "."', name);
  const matcher = compileRequestMatcher({ path: f.pattern as string | undefined, host: f.host as string | undefined, methods: f.methods as string[] | undefined }, option, 'pattern');
  const authenticators = f.authenticators === undefined ? [] : arrayOption(f.authenticators, `${option}.authenticators`).map((a, i) => resolveAuthenticator(a, `${option}.authenticators[${i}]`));
  const provider = f.provider as UserProvider | undefined;
  if (provider !== undefined && (typeof provider !== 'object' || provider === null || typeof provider.loadUserByIdentifier !== 'function' || typeof provider.checkPassword !== 'function')) {
    throw invalid(`${option}.provider`, 'expected a UserProvider (loadUserByIdentifier(), checkPassword())', provider);
  }
  const security = booleanOption(f.security, `${option}.security`, true);
  if (security && authenticators.length > 0 && provider === undefined) {
    throw invalid(`${option}.provider`, 'a firewall with authenticators needs a UserProvider to check passwords and load users, e.g. new InMemoryUserProvider({ users: … })', provider);
  }
  return Object.freeze({
    name,
    matcher,
    security,
    stateless: booleanOption(f.stateless, `${option}.stateless`, false),
    authenticators: Object.freeze(authenticators),
    provider,
    entryPoint: resolveEntryPoint(f.entryPoint, authenticators, `${option}.entryPoint`),
    sessionKey: `_security_${name}`,
  });
}

/**
 * Validates {@link FirewallOptions} once, at construction.
 * @throws KernelConfigError naming the first bad option with its full path, e.g.
 *   `Invalid option "firewalls[0].pattern": not a valid regular expression: … (got "^/(admin").`
 */
export function resolveFirewallOptions(options: FirewallOptions): ResolvedFirewallOptions {
  const o = objectOption(options, 'options');
  knownKeys(o, ['firewalls', 'accessControl', 'roleHierarchy', 'throttling'], '');
  const list = arrayOption(o.firewalls, 'firewalls');
  if (list.length === 0) throw invalid('firewalls', 'expected at least one firewall, e.g. [{ name: "main", authenticators: [new HttpBasicAuthenticator()], provider }]', list);
  const firewalls = list.map((f, i) => resolveFirewall(f, `firewalls[${i}]`));
  firewalls.forEach((f, i) => {
    if (firewalls.findIndex((g) => g.name === f.name) !== i) throw invalid(`firewalls[${i}].name`, 'another firewall has this name', f.name);
  });
  return Object.freeze({
    firewalls: Object.freeze(firewalls),
    accessMap: new AccessMap(o.accessControl as AccessControlRule[] | undefined),
    roleHierarchy: new RoleHierarchy(o.roleHierarchy as RoleHierarchyMap | undefined),
    throttler: o.throttling === undefined ? undefined : new LoginThrottler(o.throttling as LoginThrottlingOptions),
  });
}
