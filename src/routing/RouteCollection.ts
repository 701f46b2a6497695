import { Route } from './Route';

/**
 * An ordered set of named routes (Symfony `RouteCollection`). Matching order is priority
 * (highest first), then declaration order. Adding a name again replaces the route and moves it to
 * the end, as Symfony does.
 */
export class RouteCollection implements Iterable<[string, Route]> {
  private readonly routes = new Map<string, { route: Route; priority: number }>();

  /**
   * @param name - the route name, used by the generator and reported by the matcher
   * @param route - the route
   * @param priority - higher matches first; ties keep declaration order @default 0
   * @returns this collection
   */
  add(name: string, route: Route, priority = 0): this {
    this.routes.delete(name);
    this.routes.set(name, { route, priority });
    return this;
  }

  /**
   * Adds every route of another collection, optionally under a path prefix.
   * @param collection - routes to add (their priorities are kept)
   * @param prefix - a path prefix such as `/api` @default ''
   */
  addCollection(collection: RouteCollection, prefix = ''): this {
    const cleanPrefix = prefix.trim().replace(/\/+$/, '');
    for (const [name, route, priority] of collection.entries()) {
      const moved = cleanPrefix === ''
        ? route
        : new Route(cleanPrefix + (route.path === '/' ? '' : route.path) || '/', {
            defaults: route.defaults, requirements: route.requirements, methods: [...route.methods],
            host: route.host, schemes: [...route.schemes], condition: route.condition,
            controller: route.controller, options: route.options as Record<string, unknown>,
          });
      this.add(name, moved, priority);
    }
    return this;
  }

  /** The route called `name`, or undefined. */
  get(name: string): Route | undefined {
    return this.routes.get(name)?.route;
  }

  /** Removes a route by name. @returns true when it existed */
  remove(name: string): boolean {
    return this.routes.delete(name);
  }

  /** The number of routes. */
  get size(): number {
    return this.routes.size;
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
}
