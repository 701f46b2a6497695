/**
 * Security: the firewall layer, authenticators, users, login throttling and per-route access
 * checks (Symfony SecurityBundle and API Platform's `security` / `securityPostDenormalize`).
 */
export { firewall } from './firewall';
export { firewallConfigSchema, firewallOptionsSchema, resolveFirewallOptions } from './FirewallOptions';
export type { FirewallOptions, FirewallConfig, ResolvedFirewall, ResolvedFirewallOptions } from './FirewallOptions';
export { AccessMap } from './AccessMap';
export type { AccessControlRule } from './AccessMap';
export { compileRequestMatcher, decodedPathInfo, requestFacts } from './RequestMatcher';
export type { RequestMatcher, RequestMatcherOptions, RequestFacts } from './RequestMatcher';
export { isGranted, PUBLIC_ACCESS } from './SecurityState';
export type { SecurityState, AccessDecision } from './SecurityState';
export { denyAccess, startAuthentication } from './ExceptionListener';
export {
  AuthenticationError, isAuthenticationError, badCredentials, invalidCsrfToken, INVALID_CREDENTIALS,
} from './AuthenticationError';
export type { AuthenticationFailure } from './AuthenticationError';
export type { Authenticator, AuthenticationEntryPoint, Passport } from './Authenticator';
export { HttpBasicAuthenticator } from './HttpBasicAuthenticator';
export type { HttpBasicAuthenticatorOptions } from './HttpBasicAuthenticator';
export { parseBasicCredentials } from './BasicCredentials';
export type { BasicCredentials } from './BasicCredentials';
export { AccessTokenAuthenticator } from './AccessTokenAuthenticator';
export type { AccessTokenAuthenticatorOptions, AccessTokenLookup } from './AccessTokenAuthenticator';
export { JsonLoginAuthenticator } from './JsonLoginAuthenticator';
export type { JsonLoginAuthenticatorOptions } from './JsonLoginAuthenticator';
export { FormLoginAuthenticator } from './FormLoginAuthenticator';
export type { FormLoginAuthenticatorOptions } from './FormLoginAuthenticator';
export { LogoutListener } from './LogoutListener';
export type { LogoutOptions } from './LogoutListener';
export { csrfToken, isCsrfTokenValid } from './csrf';
export {
  forgetLoginCsrfToken, isCrossOrigin, isLoginCsrfTokenValid, loginCsrfToken, LOGIN_CSRF_COOKIE,
  SECURE_LOGIN_CSRF_COOKIE,
} from './loginCsrf';
export { AUTHENTICATED_CACHE_CONTROL, keepOutOfCaches } from './privateResponse';
export { lastAuthenticationError, lastAuthenticationFailure, lastUsername } from './AuthenticationUtils';
export type { AuthenticationFailureRecord } from './AuthenticationUtils';
export { createSecurityUser } from './SecurityUser';
export type { SecurityUser } from './SecurityUser';
export type { UserProvider } from './UserProvider';
export { InMemoryUserProvider } from './InMemoryUserProvider';
export type { InMemoryUserProviderOptions, InMemoryUserDefinition } from './InMemoryUserProvider';
export { RoleHierarchy } from './RoleHierarchy';
export type { RoleHierarchyMap } from './RoleHierarchy';
export { LoginThrottler } from './LoginThrottler';
export type { LoginThrottlingOptions } from './LoginThrottler';
export type { ThrottleStore, ThrottleHit } from './ThrottleStore';
export { MemoryThrottleStore } from './MemoryThrottleStore';
export type { MemoryThrottleStoreOptions } from './MemoryThrottleStore';
export { SqliteThrottleStore } from './SqliteThrottleStore';
export type { SqliteThrottleStoreOptions } from './SqliteThrottleStore';
export { RedisThrottleStore } from './RedisThrottleStore';
export type { RedisThrottleStoreOptions } from './RedisThrottleStore';
export { accessCheck } from './accessCheck';
export type { AccessCheckOptions } from './accessCheck';
export { bodyParsing } from '../http/body/bodyParsing';
export type { BodyParsingOptions } from '../http/body/bodyParsing';
export { postDenormalizeCheck } from './postDenormalizeCheck';
export type { DenormalizedState } from './postDenormalizeCheck';
export { securedRouteOptions, validateSecuredRoutes } from './RouteSecurity';
export type { SecuredRouteOptions, SecurityContext, PostDenormalizeContext, SecurityCheck } from './RouteSecurity';
export { createJsonBodyReader, JSON_TYPES } from '../http/body/JsonBodyReader';
export type { JsonBodyReader, JsonBodyReaderOptions } from '../http/body/JsonBodyReader';
