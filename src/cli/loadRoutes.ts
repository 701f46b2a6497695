import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDemoRoutes } from '../demo/routes';
import { isKernelError, KernelError } from '../errors/KernelError';
import { loadRoutes as loadRouteFile } from '../routing/loader/RouteFileLoader';
import type { RouteCollection } from '../routing/RouteCollection';
import { loadPeer } from '../storage/optionalPeer';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_CLI_ROUTES_MODULE: RoutesModuleError;
  }
}

/**
 * The routes module (or the `express-kernel.config.*` file naming it) could not be loaded or
 * exports no route collection (code `ERR_CLI_ROUTES_MODULE`). The message names the file and says
 * what was expected; `cause` holds the underlying error, if any.
 */
export class RoutesModuleError extends KernelError {
  override name = 'RoutesModuleError';
  declare readonly code: 'ERR_CLI_ROUTES_MODULE';
  /** The module specifier as given on the command line or in the config file. */
  readonly modulePath: string;

  /**
   * @param modulePath - the module specifier as given
   * @param message - the full message
   * @param options - `cause`: the error that stopped the loading
   */
  constructor(modulePath: string, message: string, options?: { cause?: unknown }) {
    super('ERR_CLI_ROUTES_MODULE', message, options);
    this.modulePath = modulePath;
  }
}

/**
 * True when `value` looks like a {@link RouteCollection}. Checked by shape rather than with
 * `instanceof`, so that a module built against another copy of express-kernel (its `dist`, an
 * installed package, its TypeScript sources) is accepted.
 * @param value - anything a module exported
 */
export function isRouteCollectionLike(value: unknown): value is RouteCollection {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.all === 'function' && typeof v.get === 'function' && typeof v.entries === 'function';
}

/**
 * The names of the config file looked up in the working directory when no `--routes` is given,
 * in the order they are tried. Only one may exist.
 */
export const CONFIG_FILE_NAMES = [
  'express-kernel.config.js',
  'express-kernel.config.cjs',
  'express-kernel.config.mjs',
  'express-kernel.config.ts',
] as const;

/**
 * Where the console commands read their routes from, in this order:
 * - `option`: the `--routes <module>` option (`file` is the resolved path, `given` as typed);
 * - `config`: the `routes` entry of `express-kernel.config.*` in the working directory
 *   (`given` as written there, `configFile` the config's path);
 * - `demo`: neither is given, so the demo routing table.
 */
export type RoutesSource =
  | { readonly kind: 'option'; readonly file: string; readonly given: string }
  | { readonly kind: 'config'; readonly file: string; readonly given: string; readonly configFile: string }
  | { readonly kind: 'demo' };

/** The first line of an error message (Node's "Cannot find module" adds the require stack below it). */
function firstLine(error: unknown): string {
  const message = typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : String(error);
  return message.split('\n')[0];
}

/** The extensions tried, in order, for a path given without one. */
const EXTENSIONS = ['.js', '.cjs', '.mjs', '.json', '.ts', '.mts', '.cts'];

function isFile(file: string): boolean {
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * A path (absolute, or starting with `./` or `../`) resolved against `cwd`, tried as given and
 * then with each of {@link EXTENSIONS}; a bare name that is a file in `cwd` likewise; anything
 * else as a package specifier.
 * @throws RoutesModuleError when nothing is found
 */
function resolveModule(modulePath: string, cwd: string): string {
  const absolute = path.resolve(cwd, modulePath);
  const found = [absolute, ...EXTENSIONS.map((ext) => absolute + ext)].find(isFile);
  if (found !== undefined) return found;
  if (path.isAbsolute(modulePath) || /^\.{1,2}([\\/]|$)/.test(modulePath)) {
    throw new RoutesModuleError(
      modulePath, `Cannot load the routes module "${modulePath}": Cannot find module "${absolute}"`,
    );
  }
  try {
    return require.resolve(modulePath, { paths: [cwd] });
  } catch (error) {
    throw new RoutesModuleError(
      modulePath, `Cannot load the routes module "${modulePath}": ${firstLine(error)}`, { cause: error },
    );
  }
}

/**
 * The `express-kernel.config.*` file in `cwd`, if there is one.
 * @throws RoutesModuleError when there are several (which one wins would be a guess)
 */
export function findConfigFile(cwd: string): string | undefined {
  const found = CONFIG_FILE_NAMES.map((name) => path.join(cwd, name)).filter(isFile);
  if (found.length > 1) {
    const names = found.map((f) => path.basename(f));
    throw new RoutesModuleError(names[0], `Found ${names.join(' and ')} in "${cwd}": keep one of them.`);
  }
  return found[0];
}

/**
 * The kinds of routes file {@link readRoutesFile} knows, by file name:
 * - `typescript`: `.ts`, `.mts`, `.cts`, `.tsx`, and `.mjs` (ES modules, which `require` only
 *   loads from Node 20.19), loaded through tsx's programmatic `require`, without registering
 *   anything for the rest of the process;
 * - `symfony`: `.yaml`, `.yml` and `.json`, Symfony's route file format, read by the routing
 *   loader (`loadRoutes` of `express-kernel/routing`); the CLI only describes the controllers,
 *   so a controller missing from the (empty) map shows by the name the file gives it;
 * - `commonjs`: anything else (`.js`, `.cjs`), loaded by Node's own `require`.
 */
export type RoutesFileType = 'typescript' | 'symfony' | 'commonjs';

/**
 * The type of a routes file, by its extension (see {@link RoutesFileType}).
 * @param file - a file path
 */
export function routesFileType(file: string): RoutesFileType {
  if (/\.(?:[cm]?tsx?|mjs)$/i.test(file)) return 'typescript';
  return /\.(?:ya?ml|json)$/i.test(file) ? 'symfony' : 'commonjs';
}

/**
 * Reads a routes file (or a config file) and returns what it exports. The one place where the
 * file type decides how a file is read: a Symfony route file gives the `RouteCollection` it builds.
 * @param file - the absolute path of the file
 * @returns the module's exports
 * @throws whatever loading the file throws (syntax errors, a missing import, …)
 */
export function readRoutesFile(file: string): unknown {
  switch (routesFileType(file)) {
    case 'typescript': {
      // Loaded on first use: the JavaScript paths never pay for esbuild.
      const tsx = loadPeer<{ require: (id: string, fromFile: string) => unknown }>('tsx', 'cjs/api');
      return tsx.require(file, __filename);
    }
    case 'symfony':
      return loadRouteFile(file, {}, { missingControllers: 'placeholder' });
    case 'commonjs':
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's CommonJS routes file, by path
      return require(file);
  }
}

function load(file: string, given: string): unknown {
  try {
    return readRoutesFile(file);
  } catch (error) {
    if (isKernelError(error, 'ERR_ROUTING_LOADER')) {
      throw new RoutesModuleError(given, `Cannot load the routes file "${given}": ${error.message}`, { cause: error });
    }
    throw new RoutesModuleError(
      given, `Cannot load the routes module "${given}": ${firstLine(error)}`, { cause: error },
    );
  }
}

function exportsOf(exported: unknown): Record<string, unknown> {
  return (typeof exported === 'object' || typeof exported === 'function') && exported !== null
    ? (exported as Record<string, unknown>)
    : {};
}

/**
 * The `routes` entry of a config file (`module.exports = { routes: './src/routes.ts' }`, or the
 * same object as the default export), resolved against the config file's directory.
 * @throws RoutesModuleError when the file cannot be loaded or has no `routes` string
 */
function routesOfConfig(configFile: string): RoutesSource {
  const name = path.basename(configFile);
  let exported: unknown;
  try {
    exported = readRoutesFile(configFile);
  } catch (error) {
    throw new RoutesModuleError(
      name, `Cannot load the config file "${configFile}": ${firstLine(error)}`, { cause: error },
    );
  }
  const mod = exportsOf(exported);
  const config = mod.routes === undefined && typeof mod.default === 'object' ? exportsOf(mod.default) : mod;
  const given = config.routes;
  if (typeof given !== 'string' || given.trim() === '') {
    throw new RoutesModuleError(name, `The config file "${configFile}" must name the routes module as "routes", `
      + `e.g. module.exports = { routes: './src/routes.ts' } (got ${JSON.stringify(given) ?? 'undefined'}).`);
  }
  return { kind: 'config', file: resolveModule(given, path.dirname(configFile)), given, configFile };
}

/**
 * Where the routes come from: `--routes <module>` when given, else the `routes` entry of the
 * `express-kernel.config.{js,cjs,mjs,ts}` file in `cwd`, else the demo table.
 * @param modulePath - the `--routes` option, if given
 * @param cwd - the working directory @default process.cwd()
 * @returns the source, its file resolved to an absolute path
 * @throws RoutesModuleError when the module or config file cannot be found or read
 */
export function resolveRoutesSource(modulePath?: string, cwd: string = process.cwd()): RoutesSource {
  if (modulePath !== undefined) {
    // a Symfony route file is the loader's to find: its "not found" message is Symfony's
    const file = routesFileType(modulePath) === 'symfony'
      ? path.resolve(cwd, modulePath)
      : resolveModule(modulePath, cwd);
    return { kind: 'option', file, given: modulePath };
  }
  const configFile = findConfigFile(cwd);
  return configFile === undefined ? { kind: 'demo' } : routesOfConfig(configFile);
}

/**
 * The route collection a module exports: the collection itself, its default export or its
 * `routes` export; else the first of these, or `createRoutes`, that is a function, called with no
 * arguments and returning the collection.
 * @throws RoutesModuleError when the function throws or returns something else, or when there is
 *   neither a collection nor a function
 */
export function collectionOf(exported: unknown, given: string): RouteCollection {
  const mod = exportsOf(exported);
  const candidates: Array<[string, unknown]> = [
    ['module.exports', exported], ['default', mod.default], ['routes', mod.routes], ['createRoutes', mod.createRoutes],
  ];
  const collection = candidates.find(([, value]) => isRouteCollectionLike(value));
  if (collection !== undefined) return collection[1] as RouteCollection;
  const factory = candidates.find(([, value]) => typeof value === 'function');
  if (factory === undefined) {
    throw new RoutesModuleError(given, `The routes module "${given}" exports no RouteCollection: `
      + 'export one as the default export or as "routes", or export a function returning one '
      + '(as the default export, "routes" or "createRoutes").');
  }
  const label = `${factory[0]}()`;
  let created: unknown;
  try {
    created = (factory[1] as () => unknown)();
  } catch (error) {
    throw new RoutesModuleError(
      given, `${label} of the routes module "${given}" failed: ${firstLine(error)}`, { cause: error },
    );
  }
  if (isRouteCollectionLike(created)) return created;
  throw new RoutesModuleError(given, `${label} of the routes module "${given}" did not return a RouteCollection.`);
}

/**
 * Loads the routing table the console commands describe, from the source
 * {@link resolveRoutesSource} picks: the `--routes` module, else the module the config file
 * names, else the demo table. A file is read by {@link readRoutesFile} (JavaScript through
 * `require`, TypeScript through tsx, Symfony's YAML or JSON route format through the routing
 * loader); a module may export, in this order of preference, the collection
 * (`module.exports`, default export or `routes`), or a function returning it (default export,
 * `routes` or `createRoutes`).
 *
 * This plays the part of the Symfony router service's `getRouteCollection()`, which the
 * FrameworkBundle commands (`RouterDebugCommand`, `RouterMatchCommand`) read.
 *
 * @param modulePath - a file path (relative to `cwd` or absolute, the extension optional), a bare
 *   file name in `cwd`, or a package specifier; undefined for the config file or the demo table
 * @param cwd - the directory relative paths and the config file are looked up in @default process.cwd()
 * @returns the route collection
 * @throws RoutesModuleError when the module or config file cannot be found or loaded, when the
 *   function it exports throws, or when nothing it exports is a route collection
 */
export function loadRoutes(modulePath?: string, cwd: string = process.cwd()): RouteCollection {
  const source = resolveRoutesSource(modulePath, cwd);
  if (source.kind === 'demo') return createDemoRoutes();
  return collectionOf(load(source.file, source.given), source.given);
}
