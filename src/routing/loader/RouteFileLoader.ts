import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Yaml from 'yaml';
import { isKernelError } from '../../errors/KernelError';
import { RouteLoaderError } from '../errors';
import type { Controller, RouteCondition, RouteDefaultInput, RouteOptions } from '../Route';
import { RouteCollection } from '../RouteCollection';
import { globImport } from './glob';
import { addLocalizedHost, addLocalizedPrefix, localizedRoutes, type LocalizedPath } from './localized';

/** Controllers by the name a route file gives them (`controller: App\Controller\BlogController::show`). */
export type ControllerMap = Readonly<Record<string, Controller>>;

/** Options of {@link loadRoutes}. */
export interface LoadRoutesOptions {
  /**
   * The `utf8` option of every route that does not set its own (Symfony's `framework.router.utf8`,
   * which a Symfony 5.4 app's recipe sets to true). @default false
   */
  utf8?: boolean;
  /** The environment: `when@<env>` sections of that name are read, the others skipped. @default undefined */
  env?: string;
  /**
   * What a `controller` missing from the map becomes: `'error'` refuses the file; `'placeholder'`
   * makes a function named after the controller that fails when called (for tools that only
   * describe the routes, such as `debug:router --routes config/routes.yaml`). @default 'error'
   */
  missingControllers?: 'error' | 'placeholder';
}

/** A stand-in for a controller the map lacks, named after it (see `missingControllers`). */
function placeholder(id: string): Controller {
  const fn: Controller = () => { throw new Error(`The controller "${id}" is not in the controller map.`); };
  Object.defineProperty(fn, 'name', { value: id });
  return fn;
}

/** Symfony `YamlFileLoader::AVAILABLE_KEYS`, in Symfony's order (the error message lists them). */
const AVAILABLE_KEYS = [
  'resource', 'type', 'prefix', 'path', 'host', 'schemes', 'methods', 'defaults', 'requirements', 'options',
  'condition', 'controller', 'name_prefix', 'trailing_slash_on_root', 'locale', 'format', 'utf8', 'exclude',
  'stateless',
] as const;

type Config = Record<string, unknown>;

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one route file at a time; `stack` holds the files being imported, to catch cycles. */
class Loader {
  constructor(
    private readonly controllers: ControllerMap,
    private readonly options: LoadRoutesOptions,
  ) {}

  private fail(file: string, message: string, cause?: unknown): never {
    throw new RouteLoaderError(file, message, cause === undefined ? undefined : { cause });
  }

  /** Parses a file's text as YAML (`.yaml`/`.yml`) or JSON (`.json`). */
  read(file: string): unknown {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      return this.fail(file, `File "${file}" not found.`, error);
    }
    if (file.endsWith('.json')) {
      try {
        return text.trim() === '' ? null : JSON.parse(text);
      } catch (error) {
        return this.fail(file, `The file "${file}" does not contain valid JSON: ${(error as Error).message}`, error);
      }
    }
    try {
      // loaded on first use: express-kernel/routing loads no package until a YAML file is read
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: see above
      const yaml = require('yaml') as typeof Yaml;
      return yaml.parse(text, { prettyErrors: false });
    } catch (error) {
      return this.fail(file, `The file "${file}" does not contain valid YAML: ${(error as Error).message}`, error);
    }
  }

  /** Symfony `YamlFileLoader::load` on parsed content. */
  load(parsed: unknown, file: string, stack: readonly string[]): RouteCollection {
    const collection = new RouteCollection();
    if (parsed === null || parsed === undefined) return collection;
    if (!isMap(parsed)) this.fail(file, `The file "${file}" must contain a YAML array.`);
    for (const [name, config] of Object.entries(parsed)) {
      if (name.startsWith('when@')) {
        if (this.options.env === undefined || name !== `when@${this.options.env}`) continue;
        if (!isMap(config)) this.fail(file, `The definition of "${name}" in "${file}" must be a YAML array.`);
        for (const [inner, innerConfig] of Object.entries(config)) {
          this.entry(collection, inner, `${inner}" when "@${this.options.env}`, innerConfig, file, stack);
        }
        continue;
      }
      this.entry(collection, name, name, config, file, stack);
    }
    return collection;
  }

  private entry(
    collection: RouteCollection, name: string, label: string, config: unknown, file: string, stack: readonly string[],
  ): void {
    const c = this.validate(config, label, file);
    try {
      if (c.alias !== undefined) this.parseAlias(collection, name, c, file);
      else if (c.resource !== undefined) this.parseImport(collection, c, file, stack);
      else this.parseRoute(collection, name, c, file);
    } catch (error) {
      if (isKernelError(error, 'ERR_ROUTING_LOADER')) throw error;
      // A routing error (bad requirement, bad inline syntax, missing prefix for a locale).
      this.fail(file, `Route "${name}" in "${file}" is invalid: ${(error as Error).message}`, error);
    }
  }

  /** Symfony `YamlFileLoader::validate` and `validateAlias`. */
  private validate(config: unknown, name: string, file: string): Config {
    if (!isMap(config)) this.fail(file, `The definition of "${name}" in "${file}" must be a YAML array.`);
    if (config.alias !== undefined && config.alias !== null) {
      for (const [key, value] of Object.entries(config)) {
        if (key !== 'alias' && key !== 'deprecated') {
          this.fail(file, `The routing file "${file}" must not specify other keys than "alias" and "deprecated" for ` +
            `"${name}".`);
        }
        if (key === 'deprecated') {
          for (const attr of ['package', 'version']) {
            if (!isMap(value) || value[attr] === undefined || value[attr] === null) {
              this.fail(file, `The routing file "${file}" must specify the attribute "${attr}" of the "deprecated" ` +
                `option for "${name}".`);
            }
          }
        }
      }
      return config;
    }
    const extra = Object.keys(config).filter((k) => !(AVAILABLE_KEYS as readonly string[]).includes(k));
    if (extra.length > 0) {
      this.fail(file, `The routing file "${file}" contains unsupported keys for "${name}": "${extra.join('", "')}". ` +
        `Expected one of: "${AVAILABLE_KEYS.join('", "')}".`);
    }
    const has = (k: string) => config[k] !== undefined && config[k] !== null;
    if (has('resource') && has('path')) {
      this.fail(file, `The routing file "${file}" must not specify both the "resource" key and the "path" key for ` +
        `"${name}". ` +
        'Choose between an import and a route definition.');
    }
    if (!has('resource') && has('type')) {
      this.fail(file, `The "type" key for the route definition "${name}" in "${file}" is unsupported. ` +
        'It is only available for imports in combination with the "resource" key.');
    }
    if (!has('resource') && !has('path')) this.fail(file, `You must define a "path" for the route "${name}" in file ` +
      `"${file}".`);
    const defaults = config.defaults;
    if (has('controller') && isMap(defaults) && defaults._controller !== undefined) {
      this.fail(file, `The routing file "${file}" must not specify both the "controller" key and the defaults key ` +
        `"_controller" for "${name}".`);
    }
    if (has('stateless') && isMap(defaults) && defaults._stateless !== undefined) {
      this.fail(file, `The routing file "${file}" must not specify both the "stateless" key and the defaults key ` +
        `"_stateless" for "${name}".`);
    }
    return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== null));
  }

  private parseAlias(collection: RouteCollection, name: string, c: Config, file: string): void {
    const target = this.string(c.alias, 'alias', name, file);
    const alias = collection.addAlias(name, target);
    if (isMap(c.deprecated)) {
      const d = c.deprecated;
      alias.setDeprecated(
        this.string(d.package, 'deprecated.package', name, file),
        this.string(d.version, 'deprecated.version', name, file),
        d.message === undefined || d.message === null ? '' : this.string(d.message, 'deprecated.message', name, file),
      );
    }
  }

  /**
   * The parts of a route or import that become defaults, requirements and options; `controller`
   * becomes the `_controller` default, as in Symfony (see {@link Loader.resolveControllers}).
   */
  private common(c: Config, name: string, file: string): {
    defaults: Record<string, RouteDefaultInput>; requirements: Record<string, string>; options: Record<string, unknown>;
  } {
    const defaults = this.record(c.defaults, 'defaults', name, file) as Record<string, RouteDefaultInput>;
    const requirements: Record<string, string> = {};
    // A YAML list is a PHP array with integer keys: Symfony names the first as the placeholder.
    const given = Array.isArray(c.requirements)
      ? { ...c.requirements } : this.record(c.requirements, 'requirements', name, file);
    for (const [k, v] of Object.entries(given)) {
      if (/^\d+$/.test(k)) {
        this.fail(file, `A placeholder name must be a string (${k} given). Did you forget to specify the placeholder ` +
          `key ` +
          `for the requirement "${String(v)}" of route "${name}" in "${file}"?`);
      }
      requirements[k] = typeof v === 'number' ? String(v) : this.string(v, `requirements.${k}`, name, file);
    }
    const options = this.record(c.options, 'options', name, file);
    if (c.controller !== undefined) defaults._controller = this.string(c.controller, 'controller', name, file);
    if (c.locale !== undefined) defaults._locale = this.string(c.locale, 'locale', name, file);
    if (c.format !== undefined) defaults._format = this.string(c.format, 'format', name, file);
    if (c.utf8 !== undefined) options.utf8 = this.boolean(c.utf8, 'utf8', name, file);
    if (c.stateless !== undefined) defaults._stateless = this.boolean(c.stateless, 'stateless', name, file);
    return { defaults, requirements, options };
  }

  /** The controller the map gives `id` (or its placeholder, see `missingControllers`). */
  private controller(id: string, name: string, file: string): Controller {
    let controller = Object.prototype.hasOwnProperty.call(this.controllers, id) ? this.controllers[id] : undefined;
    if (typeof controller !== 'function' && this.options.missingControllers === 'placeholder') {
      controller = placeholder(id);
    }
    if (typeof controller !== 'function') {
      const known = Object.keys(this.controllers);
      this.fail(file, `The controller "${id}" of "${name}" in "${file}" is not in the controller map` +
        (known.length > 0 ? ` (known: "${known.join('", "')}").` : ' (the map is empty).'));
    }
    return controller;
  }

  /**
   * Turns each route's `_controller` default (from `controller:` or `defaults: { _controller }`,
   * the route's own or its import's, which Symfony's `addDefaults` lets win) into the route's
   * controller, looked up in the map, and takes it out of the defaults: a route file's routes
   * carry their controller as a function, whichever way the file named it.
   * @param name - the route or import, for the error
   */
  private resolveControllers(routes: RouteCollection, name: string, file: string): void {
    for (const [n, r] of routes.entries()) {
      const id = r.defaults._controller;
      if (id === undefined) continue;
      const { _controller: _id, ...defaults } = r.defaults;
      const controller = this.controller(this.string(id, 'defaults._controller', name, file), name, file);
      routes.replace(n, r.with({ controller, defaults }));
    }
  }

  /** Symfony `YamlFileLoader::parseRoute`. */
  private parseRoute(collection: RouteCollection, name: string, c: Config, file: string): void {
    const { defaults, requirements, options } = this.common(c, name, file);
    const routes = localizedRoutes(name, this.localized(c.path, 'path', name, file));
    routes.addDefaults(defaults).addRequirements(requirements).addOptions(options)
      .setSchemes(this.list(c.schemes, 'schemes', name, file)).setMethods(this.list(c.methods, 'methods', name, file))
      .setCondition(this.condition(c.condition, name, file));
    this.resolveControllers(routes, name, file);
    if (c.host !== undefined) addLocalizedHost(routes, this.localized(c.host, 'host', name, file));
    collection.addCollection(routes);
  }

  /**
   * Symfony `YamlFileLoader::parseImport`: the imported file's routes, changed as the import says.
   * A glob resource (see {@link globImport}) imports each file it matches, each changed alone.
   */
  private parseImport(collection: RouteCollection, c: Config, file: string, stack: readonly string[]): void {
    const resource = this.string(c.resource, 'resource', 'resource', file);
    if (c.type !== undefined && !(typeof c.type === 'string' && ['yaml', 'yml', 'json', 'glob'].includes(c.type))) {
      const type = typeof c.type === 'string' ? c.type : JSON.stringify(c.type);
      this.fail(file, `The import of "${resource}" in "${file}" has the type "${type}": only YAML and JSON ` +
        `route files (and globs of them) can be imported.`);
    }
    const exclude = c.exclude === undefined ? [] : this.list(c.exclude, 'exclude', resource, file);
    const targets = globImport(resource, path.dirname(file), exclude)
      ?? (c.type === 'glob' ? [] : [path.resolve(path.dirname(file), resource)]);
    const { defaults, requirements, options } = this.common(c, resource, file);
    const trailingSlashOnRoot = c.trailing_slash_on_root === undefined
      ? true : this.boolean(c.trailing_slash_on_root, 'trailing_slash_on_root', resource, file);
    const prefix = c.prefix === undefined ? '' : this.localized(c.prefix, 'prefix', resource, file);
    for (const target of targets) {
      if (!/\.(ya?ml|json)$/.test(target)) {
        this.fail(file, `Cannot import "${target}" from "${file}": only .yaml, .yml and .json route files can be ` +
          `imported.`);
      }
      if (stack.includes(target)) {
        this.fail(file, `Circular reference detected in "${file}" ("${[...stack, target].join('" > "')}").`);
      }
      const sub = this.load(this.read(target), target, [...stack, target]);
      addLocalizedPrefix(sub, prefix, trailingSlashOnRoot);
      if (c.host !== undefined) addLocalizedHost(sub, this.localized(c.host, 'host', resource, file));
      if (c.condition !== undefined) sub.setCondition(this.condition(c.condition, resource, file));
      if (c.schemes !== undefined) sub.setSchemes(this.list(c.schemes, 'schemes', resource, file));
      if (c.methods !== undefined) sub.setMethods(this.list(c.methods, 'methods', resource, file));
      if (c.name_prefix !== undefined) sub.addNamePrefix(this.string(c.name_prefix, 'name_prefix', resource, file));
      sub.addDefaults(defaults).addRequirements(requirements).addOptions(options);
      this.resolveControllers(sub, resource, file);
      collection.addCollection(sub);
    }
  }

  private string(value: unknown, key: string, name: string, file: string): string {
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    return this.fail(file, `The "${key}" of "${name}" in "${file}" must be a string, ${describe(value)} given.`);
  }

  private boolean(value: unknown, key: string, name: string, file: string): boolean {
    if (typeof value === 'boolean') return value;
    return this.fail(file, `The "${key}" of "${name}" in "${file}" must be a boolean, ${describe(value)} given.`);
  }

  private record(value: unknown, key: string, name: string, file: string): Record<string, unknown> {
    if (value === undefined || value === null) return {};
    if (!isMap(value)) this.fail(file, `The "${key}" of "${name}" in "${file}" must be a map, ${describe(value)} ` +
      `given.`);
    if (Object.prototype.hasOwnProperty.call(value, '__proto__')) this.fail(file, `The "${key}" of "${name}" in ` +
      `"${file}" has the key "__proto__".`);
    return { ...value };
  }

  private list(value: unknown, key: string, name: string, file: string): string[] {
    if (value === undefined || value === null) return [];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
    return this.fail(file, `The "${key}" of "${name}" in "${file}" must be a string or a list of strings, ` +
      `${describe(value)} given.`);
  }

  /** A string, or a map of locale to string (`path`, `host`, `prefix`). */
  private localized(value: unknown, key: string, name: string, file: string): LocalizedPath {
    if (typeof value === 'string') return value;
    if (isMap(value) && Object.values(value).every((v) => typeof v === 'string')) {
      return value as Record<string, string>;
    }
    return this.fail(file, `The "${key}" of "${name}" in "${file}" must be a string or a map of locale to string, ` +
      `${describe(value)} given.`);
  }

  /**
   * A `condition`: a JavaScript expression over `context` (method, host, scheme, pathInfo), where
   * Symfony has an ExpressionLanguage one. The file is configuration, trusted as code is.
   */
  private condition(value: unknown, name: string, file: string): RouteCondition | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const source = this.string(value, 'condition', name, file);
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the route file is trusted configuration (above)
      const fn = new Function('context', `"use strict"; return (${source});`) as (context: unknown) => unknown;
      const condition = (context: Parameters<RouteCondition>[0]): boolean => Boolean(fn(context));
      Object.defineProperty(condition, 'name', { value: source });
      return condition;
    } catch (error) {
      return this.fail(file, `The "condition" of "${name}" in "${file}" is not a JavaScript expression: ` +
        `${(error as Error).message}`, error);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * Gives the `utf8` default to routes without their own. The routes are not compiled: as in
 * Symfony, a route that cannot compile (a UTF-8 path without `utf8`, a bad requirement) is
 * reported, by name, when a matcher or a generator is built from the collection (the kernel does
 * at start-up; `debug:router --check` compiles every route).
 */
function finish(routes: RouteCollection, options: LoadRoutesOptions): RouteCollection {
  if (options.utf8 === undefined) return routes;
  for (const [name, route] of routes.entries()) {
    if (route.options.utf8 !== undefined) continue;
    routes.replace(name, route.with({ utf8: options.utf8 } satisfies RouteOptions));
  }
  return routes;
}

/**
 * Builds a collection from route definitions already parsed (the structure of a Symfony YAML
 * route file, from YAML, JSON or code). See {@link loadRoutes} for the format.
 * @param definitions - a map of route name to definition (or import)
 * @param file - the file the definitions come from: named in errors, imports are relative to it
 * @param controllers - controllers by the name the definitions give them
 * @param options - see {@link LoadRoutesOptions}
 * @returns the routes, not compiled (see {@link loadRoutes})
 * @throws RouteLoaderError for anything wrong in the definitions, and only that
 */
export function parseRoutes(
  definitions: unknown, file: string, controllers: ControllerMap = {}, options: LoadRoutesOptions = {},
): RouteCollection {
  const absolute = path.resolve(file);
  try {
    return finish(new Loader(controllers, options).load(definitions, absolute, [absolute]), options);
  } catch (error) {
    if (isKernelError(error, 'ERR_ROUTING_LOADER')) throw error;
    const message = isKernelError(error) || error instanceof Error ? error.message : String(error);
    throw new RouteLoaderError(absolute, `The routes of "${absolute}" are invalid: ${message}`, { cause: error });
  }
}

/**
 * Loads a route file in Symfony's YAML route format (Symfony `YamlFileLoader`), or the same
 * structure as JSON (`.json`). Each top-level key is a route name (or `when@env`), with:
 * `path` (or a map of locale to path: a localized route), `host` (string or per locale),
 * `methods`, `schemes`, `defaults`, `requirements`, `options`, `controller` (a name looked up
 * in `controllers`; `defaults: { _controller: name }` is the same), `format`, `locale`, `utf8`,
 * `stateless`, `condition` (a JavaScript expression over `context`, where Symfony has
 * ExpressionLanguage); or an alias (`alias`, and `deprecated: { package, version, message }`); or
 * an import (`resource`: another .yaml/.yml/.json file, relative to this one, or a glob of them
 * such as `../controller/routing_*.yml` or `routes/{admin,shop}.yaml`, with `exclude` globs, as
 * Symfony's `FileLoader::import` resolves them; with `prefix` (string or per locale),
 * `name_prefix`, `trailing_slash_on_root`, and `host`, `methods`, `schemes`, `condition`,
 * `defaults`, `requirements`, `options`, `controller`, … applied to the imported routes: an
 * import's `controller` or `_controller` default replaces theirs, its `locale` spares the
 * localized ones). An unknown key is an error naming it and the file, with Symfony's message.
 *
 * The routes are not compiled here, as in Symfony: a route that cannot compile (a UTF-8 path
 * without the `utf8` option, a requirement that is not a regular expression) loads, and the
 * error, naming the route, comes when a `UrlMatcher` or `UrlGenerator` is built from the
 * collection (`createKernel` builds its matcher at start-up); `express-kernel debug:router
 * --check` compiles every route, for CI.
 *
 * @example createKernel({ routes: loadRoutes('config/routes.yaml', { 'App\\Controller\\Blog::show': show }) })
 * @param file - the file path (relative to the working directory, or absolute)
 * @param controllers - controllers by the name the file gives them @default {}
 * @param options - see {@link LoadRoutesOptions}
 * @returns the routes, each with its controller function (none in `defaults`)
 * @throws RouteLoaderError when the file cannot be read or parsed, or a definition is wrong
 */
export function loadRoutes(
  file: string, controllers: ControllerMap = {}, options: LoadRoutesOptions = {},
): RouteCollection {
  const absolute = path.resolve(file);
  const loader = new Loader(controllers, options);
  return parseRoutes(loader.read(absolute), absolute, controllers, options);
}
