import type { Route } from '../routing/Route';
import { PLAIN, type Palette } from './style';
import type { RouteCollection } from '../routing/RouteCollection';
import { renderTable } from './table';

/** A named route, as `RouteCollection.all()` lists them. */
export type NamedRoute = readonly [name: string, route: Route];

/** The aliases of each route name, by the route name (only aliases that name it directly). */
export type ReverseAliases = ReadonlyMap<string, readonly string[]>;

/**
 * The aliases pointing at each route or alias, in declaration order (Symfony
 * `Descriptor::getReverseAliases()`, for `debug:router --show-aliases`).
 * @param routes - the collection
 * @returns target name → alias names
 */
export function reverseAliases(routes: RouteCollection): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, alias] of routes.getAliases()) {
    const list = out.get(alias.id);
    if (list === undefined) out.set(alias.id, [name]);
    else list.push(name);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function className(value: object): string {
  if (typeof value === 'function') return 'Closure';
  return (value.constructor as { name?: string } | undefined)?.name || 'object';
}

/**
 * A controller or condition as Symfony's `TextDescriptor::formatCallable()` prints it: `name()`
 * for a named function (a bound function loses its `bound ` prefix), `Closure()` for an anonymous
 * one, `x()` for a string `x`. A function written inline as `{ controller: () => … }` only gets
 * the name `controller` from JavaScript's name inference, so it counts as anonymous too.
 * @param callable - a function or a string
 * @returns the printable form, or `''` for anything else
 */
export function formatCallable(callable: unknown): string {
  if (typeof callable === 'string') return `${callable}()`;
  if (typeof callable !== 'function') return '';
  const name = callable.name.replace(/^bound /, '');
  return name === '' || name === 'controller' || name === 'anonymous' ? 'Closure()' : `${name}()`;
}

function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function phpNumber(value: number): string {
  if (Number.isNaN(value)) return 'NAN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  return String(value);
}

/** PHP's `var_export()` of a value, with the line breaks and indentation removed. */
function varExport(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return phpNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return phpString(value);
  if (Array.isArray(value) || isPlainObject(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${/^(0|-?[1-9]\d*)$/.test(k) ? k : phpString(k)} => ${varExport(v)},`);
    return `array (${entries.join('')})`;
  }
  return `\\${className(value)}::__set_state(array())`;
}

/**
 * A value as Symfony's `Descriptor::formatValue()` prints it: strings as they are,
 * `object(Class)` for objects (`object(Closure)` for functions), else PHP's `var_export()` on one
 * line: `NULL`, `true`, `42`, `array (0 => 'a','k' => 'v',)` (plain objects and arrays being
 * PHP arrays).
 * @param value - any option or default value
 * @returns the printable form
 */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'function'
    || (typeof value === 'object' && value !== null && !Array.isArray(value) && !isPlainObject(value))) {
    return `object(${className(value)})`;
  }
  return varExport(value);
}

/** PHP 8's `ksort()` order: integer keys numerically among themselves, anything else bytewise. */
function compareKeys(a: string, b: string): number {
  const int = /^(0|-?[1-9]\d*)$/;
  if (int.test(a) && int.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Requirements, defaults or options as Symfony's `TextDescriptor::formatRouterConfig()` prints
 * them: `NONE` when empty, else one `key: value` line per entry, sorted by key (`ksort`).
 * @param config - the entries
 * @returns the lines joined with `\n`
 */
export function formatRouterConfig(config: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(config).sort(compareKeys);
  if (keys.length === 0) return 'NONE';
  return keys.map((k) => `${k}: ${formatValue(config[k])}`).join('\n').trim();
}

function conditionOf(route: Route): string | undefined {
  return route.condition === undefined ? undefined : route.condition.name || 'function';
}

/** The route's defaults with its controller as `_controller`, first, as a Symfony route has it. */
function defaultsOf(route: Route, controller: (fn: unknown) => string): Record<string, unknown> {
  return route.controller === undefined
    ? { ...route.defaults }
    : { _controller: controller(route.controller), ...route.defaults };
}

const any = (list: readonly string[]): string => (list.length > 0 ? list.join('|') : 'ANY');

/**
 * The single-route view of `debug:router <name>` (Symfony `TextDescriptor::describeRoute()`): a
 * two-column table (`Property`, `Value`) in the `default` style with the rows Route Name, Path,
 * Path Regex, Host, Host Regex, Scheme, Method, Requirements (`NO CUSTOM` when none), Class,
 * Defaults (the controller as `_controller`), Options, and Condition when the route has one.
 * The regexes are the JavaScript ones the matcher runs, printed as literals (`/^\/a$/su`) where
 * Symfony prints its PCRE (`{^/a$}sDu`).
 * @param name - the route name
 * @param route - the route
 * @param palette - the colours (the headers are green on a terminal) @default PLAIN
 * @returns the rendered table
 * @throws InvalidRouteError when the route does not compile
 */
export function describeRouteText(name: string, route: Route, palette: Palette = PLAIN): string {
  const compiled = route.compile();
  const rows: string[][] = [
    ['Route Name', name],
    ['Path', route.path],
    ['Path Regex', String(compiled.regex)],
    ['Host', route.host !== '' ? route.host : 'ANY'],
    ['Host Regex', route.host !== '' && compiled.hostRegex !== null ? String(compiled.hostRegex) : ''],
    ['Scheme', any(route.schemes)],
    ['Method', any(route.methods)],
    ['Requirements', Object.keys(route.requirements).length > 0 ? formatRouterConfig(route.requirements) : 'NO CUSTOM'],
    ['Class', className(route)],
    ['Defaults', formatRouterConfig(defaultsOf(route, formatCallable))],
    ['Options', formatRouterConfig(route.options)],
  ];
  const condition = conditionOf(route);
  if (condition !== undefined) rows.push(['Condition', condition]);
  return renderTable(['Property', 'Value'], rows, 'default', palette.info);
}

/**
 * The route list of `debug:router` (Symfony `TextDescriptor::describeRouteCollection()`): columns
 * Name, Method, Scheme, Host, Path (plus Controller with `showControllers`), `ANY` for no
 * methods, schemes or host, in the `symfony-style-guide` table style.
 * @param routes - the named routes, in matching order
 * @param showControllers - add the Controller column @default false
 * @param palette - the colours (the headers are green on a terminal) @default PLAIN
 * @param aliases - with `--show-aliases`: add the Aliases column, each route's aliases joined by `|`
 *   (see {@link reverseAliases})
 * @returns the rendered table (without the blank line `SymfonyStyle::table()` adds after it)
 */
export function describeRouteCollectionText(
  routes: Iterable<NamedRoute>,
  showControllers = false,
  palette: Palette = PLAIN,
  aliases?: ReverseAliases,
): string {
  const headers = ['Name', 'Method', 'Scheme', 'Host', 'Path'];
  if (showControllers) headers.push('Controller');
  if (aliases !== undefined) headers.push('Aliases');
  const rows: string[][] = [];
  for (const [name, route] of routes) {
    const row = [name, any(route.methods), any(route.schemes), route.host !== '' ? route.host : 'ANY', route.path];
    if (showControllers) row.push(route.controller === undefined ? '' : formatCallable(route.controller));
    if (aliases !== undefined) row.push((aliases.get(name) ?? []).join('|'));
    rows.push(row);
  }
  return renderTable(headers, rows, 'symfony-style-guide', palette.info);
}

function jsonString(value: string): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * PHP's `json_encode($value, JSON_PRETTY_PRINT)`: four-space indentation, `\/` and `\uXXXX`
 * escapes, a `Map` or plain object as an object (a `Map` keeps its order even for integer-like
 * keys), an empty array, `Map` or plain object as `[]` (all are PHP arrays), a function or other
 * object without public properties as `{}`.
 * @param value - the data
 * @param indent - the current indentation (internal) @default ''
 * @returns the JSON text
 */
export function phpJsonEncode(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return jsonString(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + phpJsonEncode(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = value instanceof Map
    ? [...(value as Map<unknown, unknown>).entries()].map(([k, v]) => [String(k), v] as const)
    : typeof value === 'function' ? [] : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return isPlainObject(value) || value instanceof Map ? '[]' : '{}';
  const body = entries.map(([k, v]) => `${inner}${jsonString(k)}: ${phpJsonEncode(v, inner)}`).join(',\n');
  return `{\n${body}\n${indent}}`;
}

function controllerValue(fn: unknown): string {
  return formatCallable(fn).replace(/\(\)$/, '');
}

/**
 * One route's data for the JSON format (Symfony `JsonDescriptor::getRouteData()`): path,
 * pathRegex, host, hostRegex, scheme, method, class, defaults (the controller's name, or
 * `Closure`, as `_controller`), requirements (`NO CUSTOM` when none), options, and condition when
 * the route has one.
 * @param route - the route
 * @returns the data, ready for {@link phpJsonEncode}
 * @throws InvalidRouteError when the route does not compile
 */
export function routeData(route: Route): Record<string, unknown> {
  const compiled = route.compile();
  const data: Record<string, unknown> = {
    path: route.path,
    pathRegex: String(compiled.regex),
    host: route.host !== '' ? route.host : 'ANY',
    hostRegex: route.host !== '' && compiled.hostRegex !== null ? String(compiled.hostRegex) : '',
    scheme: any(route.schemes),
    method: any(route.methods),
    class: className(route),
    defaults: defaultsOf(route, controllerValue),
    requirements: Object.keys(route.requirements).length > 0 ? { ...route.requirements } : 'NO CUSTOM',
    options: { ...route.options },
  };
  const condition = conditionOf(route);
  if (condition !== undefined) data.condition = condition;
  return data;
}

/**
 * `debug:router <name> --format=json` (Symfony `JsonDescriptor::describeRoute()`).
 * @param route - the route
 * @returns the pretty-printed JSON and a line break
 * @throws InvalidRouteError when the route does not compile
 */
export function describeRouteJson(route: Route): string {
  return `${phpJsonEncode(routeData(route))}\n`;
}

/**
 * `debug:router --format=json` (Symfony `JsonDescriptor::describeRouteCollection()`): an object
 * keyed by route name, in matching order.
 * @param routes - the named routes
 * @param aliases - with `--show-aliases`: each route with aliases gets them as `aliases`
 * @returns the pretty-printed JSON and a line break
 * @throws InvalidRouteError when a route does not compile
 */
export function describeRouteCollectionJson(routes: Iterable<NamedRoute>, aliases?: ReverseAliases): string {
  const data = new Map<string, unknown>();
  for (const [name, route] of routes) {
    const own = aliases?.get(name) ?? [];
    data.set(name, own.length > 0 ? { ...routeData(route), aliases: [...own] } : routeData(route));
  }
  return `${phpJsonEncode(data)}\n`;
}
