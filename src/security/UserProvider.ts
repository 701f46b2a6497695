import type { SecurityUser } from './SecurityUser';

/**
 * Where users come from (Symfony `UserProviderInterface` plus the password check of
 * `UserPasswordHasherInterface`, so hashes never leave the provider). Implementations:
 * {@link InMemoryUserProvider}.
 */
export interface UserProvider {
  /**
   * Loads a user, e.g. to refresh the one a session remembers (Symfony `loadUserByIdentifier`
   * and `refreshUser`).
   * @param identifier - the user identifier as the client sent it
   * @returns the user, or null when there is none (the firewall then treats the client as
   *   anonymous, or the credentials as bad)
   * @throws Error when the backing store fails (the firewall answers 500)
   */
  loadUserByIdentifier(identifier: string): Promise<SecurityUser | null>;
  /**
   * Checks a password. Implementations must spend the same time on unknown users as on known
   * ones, so timing does not reveal which identifiers exist.
   * @param identifier - the claimed identifier
   * @param password - the plaintext password the client sent
   * @returns the user when the password matches, else null
   * @throws Error when the backing store fails
   */
  checkPassword(identifier: string, password: string): Promise<SecurityUser | null>;
}
