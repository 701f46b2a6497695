import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDemoRoutes } from '../demo/routes';
import { RouteLoaderError } from '../routing/errors';
import { loadRoutes as loadRouteFile } from '../routing/loader/RouteFileLoader';
import type { RouteCollection } from '../routing/RouteCollection';

const ROUTES_MODULE_ERROR = Symbol.for('express-kernel.RoutesModuleError');

/**
 * The `--routes` module could not be loaded or exports no route collection. The message names the
 * module and says what was expected; `cause` holds the underlying error, if any.
 */
export class RoutesModuleError extends Error {
  override name = 'RoutesModuleError';
  /** Stable code of this error (CLI layer). */
  readonly code = 'ERR_CLI_ROUTES_MODULE';
  /** The module specifier as given on the command line. */
  readonly modulePath: string;
  readonly [ROUTES_MODULE_ERROR] = true;

  /**
   * @param modulePath - the module specifier as given
   * @param message - the full message
   * @param options - `cause`: the error that stopped the loading
   */
  constructor(modulePath: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.modulePath = modulePath;
  }
}

/**
 * True when `value` is a {@link RoutesModuleError}, also across realms and package copies.
 * @param value - anything caught
 */
export function isRoutesModuleError(value: unknown): value is RoutesModuleError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ROUTES_MODULE_ERROR] === true;
}

/**
 * True when `value` looks like a {@link RouteCollection}. Checked by shape rather than with
 * `instanceof`, so that a module built against another copy of express-kernel (its `dist`, an
 * installed package) is accepted.
 * @param value - anything a module exported
 */
export function isRouteCollectionLike(value: unknown): value is RouteCollection {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.all === 'function' && typeof v.get === 'function' && typeof v.entries === 'function';
}

/** The first line of an error message (Node's "Cannot find module" adds the require stack below it). */
function firstLine(error: unknown): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  return message.split('\n')[0];
}

/** A path (absolute, or starting with `./` or `../`) resolved against `cwd`; a bare name that is a file in `cwd` likewise; anything else as a package specifier. */
function resolveModule(modulePath: string, cwd: string): string {
  if (path.isAbsolute(modulePath) || /^\.{1,2}([\\/]|$)/.test(modulePath)) return path.resolve(cwd, modulePath);
  const absolute = path.resolve(cwd, modulePath);
  if (fs.existsSync(absolute) || ['.js', '.cjs', '.json'].some((ext) => fs.existsSync(absolute + ext))) return absolute;
  return require.resolve(modulePath, { paths: [cwd] });
}

/**
 * Loads the routing table the console commands describe: the demo table when no module is
 * given; a Symfony route file for a `.yaml`, `.yml` or `.json` path (see the routing loader's
 * `loadRoutes`; controllers show by the names the file gives them); else a CommonJS module
 * (`require`d, so `.js`/`.cjs`, or `.ts` when a TypeScript loader
 * such as ts-node is registered) that exports, in this order of preference:
 * 1. the collection itself (`module.exports = routes`) or as `default`;
 * 2. the collection as `routes`;
 * 3. a function `createRoutes()` returning the collection.
 *
 * This plays the part of the Symfony router service's `getRouteCollection()`, which the
 * FrameworkBundle commands (`RouterDebugCommand`, `RouterMatchCommand`) read.
 *
 * @param modulePath - a file path (relative to `cwd` or absolute), a bare file name in `cwd`, or a
 *   package specifier; undefined for the demo table
 * @param cwd - the directory relative paths start from @default process.cwd()
 * @returns the route collection
 * @throws RoutesModuleError when the module cannot be found or loaded, when `createRoutes()` throws,
 *   or when nothing it exports is a route collection
 */
export function loadRoutes(modulePath?: string, cwd: string = process.cwd()): RouteCollection {
  if (modulePath === undefined) return createDemoRoutes();
  // A Symfony route file (YAML, or the same structure as JSON): controllers are only described.
  if (/\.(ya?ml|json)$/i.test(modulePath)) {
    try {
      return loadRouteFile(path.resolve(cwd, modulePath), {}, { missingControllers: 'placeholder' });
    } catch (error) {
      if (!(error instanceof RouteLoaderError)) throw error;
      const message = `Cannot load the routes file "${modulePath}": ${error.message}`;
      throw new RoutesModuleError(modulePath, message, { cause: error });
    }
  }
  let exported: unknown;
  try {
    exported = require(resolveModule(modulePath, cwd));
  } catch (error) {
    throw new RoutesModuleError(modulePath, `Cannot load the routes module "${modulePath}": ${firstLine(error)}`, { cause: error });
  }
  const mod = (typeof exported === 'object' || typeof exported === 'function') && exported !== null
    ? (exported as Record<string, unknown>)
    : {};
  for (const candidate of [exported, mod.default, mod.routes]) {
    if (isRouteCollectionLike(candidate)) return candidate;
  }
  if (typeof mod.createRoutes === 'function') {
    let created: unknown;
    try {
      created = (mod.createRoutes as () => unknown)();
    } catch (error) {
      throw new RoutesModuleError(modulePath, `createRoutes() of the routes module "${modulePath}" failed: ${firstLine(error)}`, { cause: error });
    }
    if (isRouteCollectionLike(created)) return created;
    throw new RoutesModuleError(modulePath, `createRoutes() of the routes module "${modulePath}" did not return a RouteCollection.`);
  }
  throw new RoutesModuleError(
    modulePath,
    `The routes module "${modulePath}" exports no RouteCollection: export one as the default export or as "routes", or export a function createRoutes() that returns one.`,
  );
}
