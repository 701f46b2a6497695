import type { SecurityUser } from './SecurityUser';
import { defineRequestSlot } from '../http/requestSlots';

/** One access decision, as the profiler's security panel lists them (Symfony's access decision log). */
export interface AccessDecision {
  /**
   * Which check decided: a firewall `accessControl` rule, a route's `security` /
   * `securityPostDenormalize`, or an API operation's `securityPostValidation`.
   */
  readonly source: 'access_control' | 'security' | 'security_post_denormalize' | 'security_post_validation';
  /** The rule, e.g. `accessControl[0] (path ^/admin)` or `route "book_update"`. */
  readonly rule: string;
  /** What was required, e.g. `['ROLE_ADMIN']`, `['allowIf']`, `['security']`. */
  readonly attributes: readonly string[];
  readonly result: 'granted' | 'denied';
}

/** What the firewall knows of a request, on `req.security` (Symfony's token storage and firewall context). */
export interface SecurityState {
  /** The name of the firewall that matched, or null when none did. */
  readonly firewall: string | null;
  /** The authenticated user, or null for an anonymous client (also on `req.user`). */
  user: SecurityUser | null;
  /** The user's roles with the role hierarchy applied; empty when anonymous. */
  roles: readonly string[];
  /** How the user was authenticated: an authenticator's name (`http_basic`…), `session`, or null. */
  authenticator: string | null;
  /** Every access decision taken for this request, in order. */
  readonly decisions: AccessDecision[];
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated user, set by the firewall layer; undefined when anonymous. */
    user?: SecurityUser;
    /** Set by the firewall layer on every request it sees. */
    security?: SecurityState;
  }
}
defineRequestSlot('user');
defineRequestSlot('security');

/** Granted to everyone, anonymous clients included (Symfony `AuthenticatedVoter::PUBLIC_ACCESS`). */
export const PUBLIC_ACCESS = 'PUBLIC_ACCESS';
const AUTHENTICATED = ['IS_AUTHENTICATED', 'IS_AUTHENTICATED_FULLY', 'IS_AUTHENTICATED_REMEMBERED'];

/**
 * Decides one attribute for the current user (Symfony's `RoleVoter` and `AuthenticatedVoter`):
 * `PUBLIC_ACCESS` always; `IS_AUTHENTICATED`, `IS_AUTHENTICATED_FULLY` and
 * `IS_AUTHENTICATED_REMEMBERED` when a user is authenticated (there is no remember-me); any other
 * attribute is a role, granted when the user has it, hierarchy included.
 * @param state - `req.security`; undefined (no firewall layer) grants only `PUBLIC_ACCESS`
 */
export function isGranted(state: SecurityState | undefined, attribute: string): boolean {
  if (attribute === PUBLIC_ACCESS) return true;
  if (state?.user === null || state?.user === undefined) return false;
  return AUTHENTICATED.includes(attribute) || state.roles.includes(attribute);
}
