import type bcryptjs from 'bcryptjs';
import { loadPeer } from '../storage/optionalPeer';
import { createSecurityUser, SecurityUser } from './SecurityUser';
import type { UserProvider } from './UserProvider';
import { integerOption, invalid, knownKeys, objectOption, stringListOption } from '../config/optionValidation';

/** One user of an {@link InMemoryUserProvider}. */
export interface InMemoryUserDefinition {
  /**
   * A bcrypt hash (`$2a$`, `$2b$` or `$2y$`, as `htpasswd -B` or `bcrypt.hash` make them), or a
   * plaintext password, which is hashed once at construction.
   * @example '$2b$10$…' or 'admin'
   */
  password: string;
  /** Roles granted directly. @default [] */
  roles?: string[];
}

/** Options of {@link InMemoryUserProvider}. */
export interface InMemoryUserProviderOptions {
  /** Users by identifier. Identifiers are case-insensitive (stored lowercased, as Symfony does). */
  users: Record<string, InMemoryUserDefinition>;
  /**
   * bcrypt cost for hashing plaintext passwords at construction (2^cost rounds). The default is
   * low on purpose: plaintext passwords in configuration are for demos and tests, where a fast
   * start matters more than resistance to offline cracking. Give real deployments bcrypt hashes.
   * @default 8 (about 15 ms per password)
   */
  cost?: number;
}

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
    const o = objectOption(options, 'options');
    knownKeys(o, ['users', 'cost'], '');
    const cost = integerOption(o.cost, 'cost', 8, 4);
    if (cost > 31) throw invalid('cost', 'expected a bcrypt cost from 4 to 31', cost);
    for (const [identifier, definition] of Object.entries(objectOption(o.users, 'users'))) {
      const option = `users.${identifier}`;
      const d = objectOption(definition, option);
      knownKeys(d, ['password', 'roles'], option);
      if (typeof d.password !== 'string') throw invalid(`${option}.password`, 'expected a bcrypt hash or a plaintext password', d.password);
      const roles = d.roles === undefined ? [] : stringListOption(d.roles, `${option}.roles`);
      const key = identifier.toLowerCase();
      if (this.users.has(key)) throw invalid(option, 'identifiers are case-insensitive: another user has the same one', identifier);
      const hash = BCRYPT_HASH.test(d.password) ? d.password : bcrypt.hashSync(d.password, cost);
      this.users.set(key, { user: createSecurityUser(identifier, roles), hash });
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
