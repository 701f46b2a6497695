import type bcryptjs from 'bcryptjs';
import { loadPeer } from '../storage/optionalPeer';
import { createSecurityUser, SecurityUser } from './SecurityUser';
import type { UserProvider } from './UserProvider';
import { z } from 'zod';
import { integerFrom, optionsObject, stringList } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/** One user of an {@link InMemoryUserProvider}: {@link InMemoryUserDefinition}. */
const userDefinitionSchema = optionsObject({
  /**
   * A bcrypt hash (`$2a$`, `$2b$` or `$2y$`, as `htpasswd -B` or `bcrypt.hash` make them), or a
   * plaintext password, which is hashed once at construction.
   * @example '$2b$10$…' or 'admin'
   */
  password: z.string({ error: 'expected a bcrypt hash or a plaintext password' }),
  /** Roles granted directly. @default [] */
  roles: stringList.default([]),
});

/** The options of {@link InMemoryUserProvider}: {@link InMemoryUserProviderOptions}. */
export const inMemoryUserProviderOptionsSchema = optionsObject({
  /** Users by identifier. Identifiers are case-insensitive (stored lowercased, as Symfony does). */
  users: z.record(z.string(), userDefinitionSchema, { error: 'expected an object' }).superRefine((users, ctx) => {
    const seen = new Set<string>();
    for (const identifier of Object.keys(users)) {
      const key = identifier.toLowerCase();
      if (seen.has(key)) {
        const message = 'identifiers are case-insensitive: another user has the same one';
        const params = { got: JSON.stringify(identifier) };
        ctx.addIssue({ code: 'custom', path: [identifier], message, input: identifier, params });
      }
      seen.add(key);
    }
  }),
  /**
   * bcrypt cost for hashing plaintext passwords at construction (2^cost rounds). The default is
   * low on purpose: plaintext passwords in configuration are for demos and tests, where a fast
   * start matters more than resistance to offline cracking. Give real deployments bcrypt hashes.
   * @default 8 (about 15 ms per password)
   */
  cost: integerFrom(4).max(31, { error: 'expected a bcrypt cost from 4 to 31' }).default(8),
});

/** One user of an {@link InMemoryUserProvider}. */
export type InMemoryUserDefinition = z.input<typeof userDefinitionSchema>;

/** Options of {@link InMemoryUserProvider}. */
export type InMemoryUserProviderOptions = z.input<typeof inMemoryUserProviderOptionsSchema>;

const BCRYPT_HASH = /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/;
/** Symfony's `PasswordHasherInterface::MAX_PASSWORD_LENGTH`: longer input is not hashed at all. */
const MAX_PASSWORD_LENGTH = 4096;

interface StoredUser {
  readonly user: SecurityUser;
  readonly hash: string;
}

/**
 * Users defined in configuration (Symfony `InMemoryUserProvider` with the `bcrypt` hasher; the
 * oracle's `users_in_memory`). Passwords are checked with bcryptjs; an unknown identifier is
 * checked against a dummy hash so it costs the same time as a known one.
 * @example new InMemoryUserProvider({ users: { admin: { password: 'admin', roles: ['ROLE_ADMIN'] } } })
 */
export class InMemoryUserProvider implements UserProvider {
  private readonly users = new Map<string, StoredUser>();
  private readonly dummyHash: string;
  /** bcryptjs, an optional peer dependency, loaded by the first provider made. */
  private readonly bcrypt: typeof bcryptjs;

  /**
   * @throws KernelConfigError naming the bad option, e.g. `Invalid option "users.admin.roles"…`
   * @throws MissingPeerDependencyError `bcryptjs is not installed: npm install bcryptjs (…)`
   */
  constructor(options: InMemoryUserProviderOptions) {
    const bcrypt = loadPeer<typeof bcryptjs>('bcryptjs');
    this.bcrypt = bcrypt;
    const { users, cost } = parseOptions(inMemoryUserProviderOptionsSchema, options, '');
    for (const [identifier, { password, roles }] of Object.entries(users)) {
      const hash = BCRYPT_HASH.test(password) ? password : bcrypt.hashSync(password, cost);
      this.users.set(identifier.toLowerCase(), { user: createSecurityUser(identifier, roles), hash });
    }
    this.dummyHash = bcrypt.hashSync('dummy password', cost);
  }

  /** @returns the user, or null when unknown */
  async loadUserByIdentifier(identifier: string): Promise<SecurityUser | null> {
    return this.users.get(identifier.toLowerCase())?.user ?? null;
  }

  /** @returns the user when `password` matches its hash, else null (also for passwords over 4096 characters) */
  async checkPassword(identifier: string, password: string): Promise<SecurityUser | null> {
    if (password.length > MAX_PASSWORD_LENGTH) return null;
    const stored = this.users.get(identifier.toLowerCase());
    const ok = await this.bcrypt.compare(password, stored?.hash ?? this.dummyHash);
    return ok && stored !== undefined ? stored.user : null;
  }
}
