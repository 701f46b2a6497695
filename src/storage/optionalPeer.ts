/**
 * The optional peer dependencies: packages only some features need, so an application that does
 * not use those features does not install them (package.json `peerDependenciesMeta`). Each is
 * loaded on first use, with an error naming the package when it is missing.
 */
import * as path from 'node:path';
import { formatMessage } from '../errors/codes';
import { KernelError } from '../errors/KernelError';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_STORAGE_MISSING_PEER_DEPENDENCY: MissingPeerDependencyError;
  }
}

/** The optional peers, and the features that need each. */
export const OPTIONAL_PEERS = {
  'better-sqlite3': 'SQLite storage (sessions, login throttling, profiles, the demo)',
  redis: 'Redis storage (openRedis, RedisProfilerStorage, RedisThrottleStore)',
  'connect-redis': 'Redis sessions (session.store: "redis")',
  bcryptjs: 'password hashing (InMemoryUserProvider)',
  pg: 'PostgreSQL storage (createSqlState with a postgres:// URL)',
  tsx: 'TypeScript route files in the CLI (--routes routes.ts)',
  'swagger-ui-dist': 'the Swagger UI page at /api/docs',
} as const;

/** A package name of {@link OPTIONAL_PEERS}. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/**
 * Thrown when a feature needs an optional peer dependency that is not installed (code
 * `ERR_STORAGE_MISSING_PEER_DEPENDENCY`).
 */
export class MissingPeerDependencyError extends KernelError {
  override readonly name = 'MissingPeerDependencyError';
  declare readonly code: 'ERR_STORAGE_MISSING_PEER_DEPENDENCY';
  /** The package to install. */
  readonly packageName: OptionalPeer;

  /**
   * @param packageName - the missing package
   * @param cause - the `MODULE_NOT_FOUND` error `require` threw
   */
  constructor(packageName: OptionalPeer, cause?: unknown) {
    const feature = OPTIONAL_PEERS[packageName];
    const message = formatMessage('ERR_STORAGE_MISSING_PEER_DEPENDENCY', packageName, packageName, feature);
    super('ERR_STORAGE_MISSING_PEER_DEPENDENCY', message, { cause });
    this.packageName = packageName;
  }
}

const loaded = new Map<string, unknown>();

/** Whether `e` says `name` itself cannot be found (not one of its own imports). */
function isNotFound(e: unknown, name: string): boolean {
  const err = e as NodeJS.ErrnoException;
  return err?.code === 'MODULE_NOT_FOUND' && typeof err.message === 'string'
    && err.message.startsWith(`Cannot find module '${name}'`);
}

/**
 * Loads an optional peer dependency (`require`, once; later calls return the same module).
 * @param name - the package
 * @param subpath - a file or export of the package, e.g. `cjs/api` for `tsx/cjs/api`
 * @returns the module's exports
 * @throws MissingPeerDependencyError `<name> is not installed: npm install <name> (needed for …)`
 *   when the package cannot be found; any other error of loading it as is
 */
export function loadPeer<T>(name: OptionalPeer, subpath?: string): T {
  const id = subpath === undefined ? name : `${name}/${subpath}`;
  if (loaded.has(id)) return loaded.get(id) as T;
  let module: unknown;
  try {
    module = require(id) as unknown; // eslint-disable-line @typescript-eslint/no-require-imports
  } catch (e) {
    if (isNotFound(e, id)) throw new MissingPeerDependencyError(name, e);
    throw e;
  }
  loaded.set(id, module);
  return module as T;
}

/**
 * The folder an optional peer dependency is installed in (found as `require` would).
 * @param name - the package
 * @returns its absolute path
 * @throws MissingPeerDependencyError `<name> is not installed: npm install <name> (needed for …)`
 */
export function peerFolder(name: OptionalPeer): string {
  const id = `${name}/package.json`;
  try {
    return path.dirname(require.resolve(id));
  } catch (e) {
    if (isNotFound(e, id)) throw new MissingPeerDependencyError(name, e);
    throw e;
  }
}
