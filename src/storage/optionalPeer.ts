/**
 * The optional peer dependencies: packages only some features need, so an application that does
 * not use those features does not install them (package.json `peerDependenciesMeta`). Each is
 * loaded on first use, with an error naming the package when it is missing.
 */

/** The optional peers, and the features that need each. */
export const OPTIONAL_PEERS = {
  'better-sqlite3': 'SQLite storage (sessions, login throttling, profiles, the demo)',
  redis: 'Redis storage (openRedis, RedisProfilerStorage, RedisThrottleStore)',
  'connect-redis': 'Redis sessions (session.store: "redis")',
  bcryptjs: 'password hashing (InMemoryUserProvider)',
  pg: 'PostgreSQL storage (createSqlState with a postgres:// URL)',
} as const;

/** A package name of {@link OPTIONAL_PEERS}. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** Thrown when a feature needs an optional peer dependency that is not installed. */
export class MissingPeerDependencyError extends Error {
  override readonly name = 'MissingPeerDependencyError';
  /** The package to install. */
  readonly packageName: OptionalPeer;

  /**
   * @param packageName - the missing package
   * @param cause - the `MODULE_NOT_FOUND` error `require` threw
   */
  constructor(packageName: OptionalPeer, cause?: unknown) {
    const feature = OPTIONAL_PEERS[packageName];
    super(`${packageName} is not installed: npm install ${packageName} (needed for ${feature})`, { cause });
    this.packageName = packageName;
  }
}

const loaded = new Map<OptionalPeer, unknown>();

/** Whether `e` says `name` itself cannot be found (not one of its own imports). */
function isNotFound(e: unknown, name: string): boolean {
  const err = e as NodeJS.ErrnoException;
  return err?.code === 'MODULE_NOT_FOUND' && typeof err.message === 'string'
    && err.message.startsWith(`Cannot find module '${name}'`);
}

/**
 * Loads an optional peer dependency (`require`, once; later calls return the same module).
 * @param name - the package
 * @returns the module's exports
 * @throws MissingPeerDependencyError `<name> is not installed: npm install <name> (needed for …)`
 *   when the package cannot be found; any other error of loading it as is
 */
export function loadPeer<T>(name: OptionalPeer): T {
  if (loaded.has(name)) return loaded.get(name) as T;
  let module: unknown;
  try {
    module = require(name) as unknown; // eslint-disable-line @typescript-eslint/no-require-imports
  } catch (e) {
    if (isNotFound(e, name)) throw new MissingPeerDependencyError(name, e);
    throw e;
  }
  loaded.set(name, module);
  return module as T;
}
