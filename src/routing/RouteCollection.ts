import { Alias, type AliasDeprecation } from './Alias';
import { RouteCircularReferenceError, RoutingArgumentError } from './errors';
import { Route, type RouteCondition, type RouteDefaultInput } from './Route';

/** Called with the deprecation of each deprecated alias a lookup goes through. */
export type DeprecationListener = (deprecation: AliasDeprecation) => void;

/**
 * An ordered set of named routes and aliases (Symfony `RouteCollection`). Matching order is
 * priority (highest first), then declaration order. Adding a name again replaces the route (or
 * alias) and moves it to the end, as Symfony does. Routes are immutable: the bulk changes
 * (`addPrefix`, `setHost`, …) replace each route with a changed copy, in place.
 */
export class RouteCollection implements Iterable<[string, Route]> {
  private readonly routes = new Map<string, { route: Route; priority: number }>();
  private readonly aliases = new Map<string, Alias>();

  /**
   * @param name - the route name, used by the generator and reported by the matcher
   * @param route - the route
   * @param priority - higher matches first; ties keep declaration order @default 0
   * @returns this collection
   */
  add(name: string, route: Route, priority = 0): this {
    this.routes.delete(name);
    this.aliases.delete(name);
    this.routes.set(name, { route, priority });
    return this;
  }

  /**
   * Adds every route and alias of another collection, optionally under a path prefix (Symfony
   * `addCollection`; the prefix is a shortcut for `addPrefix` on the added routes, except that
   * a `/` route becomes the bare prefix).
   * @param collection - routes to add (their priorities are kept)
   * @param prefix - a path prefix such as `/api` @default ''
   */
  addCollection(collection: RouteCollection, prefix = ''): this {
    const cleanPrefix = prefix.trim().replace(/\/+$/, '');
    for (const [name, route, priority] of collection.entries()) {
      const moved = cleanPrefix === ''
        ? route : route.with({ path: cleanPrefix + (route.path === '/' ? '' : route.path) || '/' });
      this.add(name, moved, priority);
    }
    for (const [name, alias] of collection.aliases) {
      this.routes.delete(name);
      this.aliases.delete(name);
      this.aliases.set(name, alias);
    }
    return this;
  }

  /**
   * The route called `name`, following aliases (Symfony `get`).
   * @param name - a route or alias name
   * @param onDeprecation - told of each deprecated alias on the way
   * @returns the route, or undefined (also for an alias to a missing route)
   * @throws RouteCircularReferenceError when aliases loop
   */
  get(name: string, onDeprecation?: DeprecationListener): Route | undefined {
    const visited: string[] = [];
    let current = name;
    for (let alias = this.aliases.get(current); alias !== undefined; alias = this.aliases.get(current)) {
      const seen = visited.indexOf(current);
      if (seen !== -1) throw new RouteCircularReferenceError(current, [...visited.slice(seen), current]);
      const deprecation = alias.getDeprecation(current);
      if (deprecation !== undefined) onDeprecation?.(deprecation);
      visited.push(current);
      current = alias.id;
    }
    return this.routes.get(current)?.route;
  }

  /**
   * Removes routes (and aliases) by name, and the aliases that pointed to a removed route
   * (Symfony `remove`).
   * @param name - one name or several
   * @returns true when a route existed
   */
  remove(name: string | readonly string[]): boolean {
    const removed: string[] = [];
    for (const n of typeof name === 'string' ? [name] : name) {
      if (this.routes.delete(n)) removed.push(n);
      this.aliases.delete(n);
    }
    for (const [k, alias] of this.aliases) if (removed.includes(alias.id)) this.aliases.delete(k);
    return removed.length > 0;
  }

  /** The number of routes (Symfony `count`). */
  get size(): number {
    return this.routes.size;
  }

  /** The number of routes, aliases not counted (Symfony `count`). */
  count(): number {
    return this.routes.size;
  }

  /** A route's priority, or undefined when there is no such route (Symfony `getPriority`). */
  getPriority(name: string): number | undefined {
    return this.routes.get(name)?.priority;
  }

  /** `[name, route, priority]` in matching order. */
  entries(): Array<[string, Route, number]> {
    const list = [...this.routes.entries()].map(([n, v], i) => ({ n, v, i }));
    list.sort((a, b) => b.v.priority - a.v.priority || a.i - b.i);
    return list.map(({ n, v }) => [n, v.route, v.priority]);
  }

  /** `[name, route]` in matching order (Symfony `all()`). */
  all(): Array<[string, Route]> {
    return this.entries().map(([n, r]) => [n, r]);
  }

  [Symbol.iterator](): Iterator<[string, Route]> {
    return this.all()[Symbol.iterator]();
  }

  /**
   * Makes `name` another name for `target` (Symfony `addAlias`); a route called `name` is
   * removed. The target need not exist (yet): generating through such an alias fails as for an
   * unknown route.
   * @returns the alias, to deprecate it with {@link Alias.setDeprecated}
   * @throws RoutingArgumentError when `name` and `target` are the same
   */
  addAlias(name: string, target: string): Alias {
    if (name === target) throw new RoutingArgumentError(`Route alias "${name}" can not reference itself.`);
    this.routes.delete(name);
    this.aliases.delete(name);
    const alias = new Alias(target);
    this.aliases.set(name, alias);
    return alias;
  }

  /** The alias called `name`, or undefined (Symfony `getAlias`). */
  getAlias(name: string): Alias | undefined {
    return this.aliases.get(name);
  }

  /** `[name, alias]` in declaration order (Symfony `getAliases`). */
  getAliases(): Array<[string, Alias]> {
    return [...this.aliases.entries()];
  }

  /**
   * Replaces the route of a name where it stands, keeping its position and priority (what
   * changing a Symfony route in place does; routes here are immutable).
   * @returns false when there is no route of that name (nothing is added)
   */
  replace(name: string, route: Route): boolean {
    const entry = this.routes.get(name);
    if (entry === undefined) return false;
    entry.route = route;
    return true;
  }

  /** Replaces every route with `change(route)`, keeping names, order and priorities. */
  private replaceAll(change: (route: Route) => Route): this {
    for (const entry of this.routes.values()) entry.route = change(entry.route);
    return this;
  }

  /**
   * Puts a path prefix before every route, and adds defaults and requirements to them (Symfony
   * `addPrefix`). The prefix is trimmed of spaces and slashes; an empty one changes nothing, a
   * `/` route becomes `/prefix/`.
   */
  addPrefix(
    prefix: string, defaults: Record<string, RouteDefaultInput> = {}, requirements: Record<string, string> = {},
  ): this {
    const clean = prefix.trim().replace(/^\/+|\/+$/g, '');
    if (clean === '') return this;
    return this.replaceAll((r) => r.with({
      path: `/${clean}${r.path}`,
      defaults: { ...r.defaults, ...defaults },
      requirements: { ...r.requirements, ...requirements },
    }));
  }

  /**
   * Puts a prefix before every route and alias name, and the aliases' targets; `_canonical_route`
   * defaults follow (Symfony `addNamePrefix`).
   */
  addNamePrefix(prefix: string): this {
    const routes = [...this.routes.entries()];
    this.routes.clear();
    for (const [name, entry] of routes) {
      const canonical = entry.route.defaults._canonical_route;
      const route = typeof canonical === 'string'
        ? entry.route.with({ defaults: { ...entry.route.defaults, _canonical_route: prefix + canonical } })
        : entry.route;
      this.routes.set(prefix + name, { route, priority: entry.priority });
    }
    const aliases = [...this.aliases.entries()];
    this.aliases.clear();
    for (const [name, alias] of aliases) this.aliases.set(prefix + name, alias.withId(prefix + alias.id));
    return this;
  }

  /** Sets every route's host, and adds defaults and requirements (Symfony `setHost`). */
  setHost(
    pattern: string, defaults: Record<string, RouteDefaultInput> = {}, requirements: Record<string, string> = {},
  ): this {
    return this.replaceAll((r) => r.with({
      host: pattern,
      defaults: { ...r.defaults, ...defaults },
      requirements: { ...r.requirements, ...requirements },
    }));
  }

  /** Sets every route's condition; undefined removes it (Symfony `setCondition`). */
  setCondition(condition: RouteCondition | undefined): this {
    return this.replaceAll((r) => r.with({ condition }));
  }

  /** Adds defaults to every route, replacing those of the same name (Symfony `addDefaults`). */
  addDefaults(defaults: Record<string, RouteDefaultInput>): this {
    if (Object.keys(defaults).length === 0) return this;
    return this.replaceAll((r) => r.with({ defaults: { ...r.defaults, ...defaults } }));
  }

  /** Adds requirements to every route, replacing those of the same name (Symfony `addRequirements`). */
  addRequirements(requirements: Record<string, string>): this {
    if (Object.keys(requirements).length === 0) return this;
    return this.replaceAll((r) => r.with({ requirements: { ...r.requirements, ...requirements } }));
  }

  /** Adds options to every route, replacing those of the same name (Symfony `addOptions`). */
  addOptions(options: Record<string, unknown>): this {
    if (Object.keys(options).length === 0) return this;
    return this.replaceAll((r) => r.with({ options: { ...r.options, ...options }, utf8: undefined }));
  }

  /** Sets every route's schemes (Symfony `setSchemes`). */
  setSchemes(schemes: string | readonly string[]): this {
    const list = typeof schemes === 'string' ? [schemes] : schemes;
    return this.replaceAll((r) => r.with({ schemes: list }));
  }

  /** Sets every route's methods (Symfony `setMethods`). */
  setMethods(methods: string | readonly string[]): this {
    const list = typeof methods === 'string' ? [methods] : methods;
    return this.replaceAll((r) => r.with({ methods: list }));
  }
}
