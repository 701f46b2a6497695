/**
 * An authenticated user as the rest of the application sees it (Symfony `UserInterface`, without
 * `getPassword()`): the password hash stays inside the {@link UserProvider} that checks it.
 */
export interface SecurityUser {
  /** The unique identifier (Symfony `getUserIdentifier()`), e.g. a username or an e-mail address. */
  readonly identifier: string;
  /** The roles granted directly, e.g. `['ROLE_ADMIN']`; the role hierarchy adds inherited ones. */
  readonly roles: readonly string[];
}

/**
 * Builds a frozen {@link SecurityUser}.
 * @param identifier - the user identifier
 * @param roles - the roles granted directly
 */
export function createSecurityUser(identifier: string, roles: readonly string[]): SecurityUser {
  return Object.freeze({ identifier, roles: Object.freeze([...roles]) });
}
