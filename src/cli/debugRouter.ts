import type { RouteCollection } from '../routing/RouteCollection';
import type { CommandResult } from './result';
import {
  describeRouteCollectionJson,
  describeRouteCollectionText,
  describeRouteJson,
  describeRouteText,
  type NamedRoute,
  reverseAliases,
  type ReverseAliases,
} from './descriptor';
import { routerCheck } from './routerCheck';
import { ConsoleStyle, DEFAULT_TERMINAL_WIDTH, PLAIN, renderThrowable, type Palette } from './style';

/** The formats `debug:router` can print (Symfony also has `xml` and `md`). */
export const DEBUG_ROUTER_FORMATS = ['txt', 'json'] as const;

/** The `--format` values of {@link DEBUG_ROUTER_FORMATS}. */
export type DebugRouterFormat = (typeof DEBUG_ROUTER_FORMATS)[number];

/** How `debug:router` is called; all fields are optional. */
export interface DebugRouterOptions {
  /**
   * A route name. An exact name shows that route; otherwise the names containing it
   * (ASCII case-insensitive) are looked up: one is shown, several are listed.
   * Without a name, every route is listed. @example 'book_show'
   */
  name?: string;
  /** The output format, `txt` or `json`. @default 'txt' */
  format?: string;
  /** Add a Controller column to the list. @default false */
  showControllers?: boolean;
  /** Add an Aliases column to the list (`aliases` in JSON). @default false */
  showAliases?: boolean;
  /**
   * Check mode, for CI: compile every route instead of describing them, and fail (exit code 1)
   * naming each route that does not compile (see `routerCheck`); `name`, `format` and the
   * columns are not used. @default false
   */
  check?: boolean;
  /** Terminal width in columns, for wrapping error messages. @default 80 */
  terminalWidth?: number;
  /** The colours of stdout (see `paletteFor`); the JSON format is never coloured. @default PLAIN */
  palette?: Palette;
  /** The colours of stderr, for the error box. @default PLAIN */
  errorPalette?: Palette;
}

/** The usage line shown under an error, in Symfony's synopsis notation. */
export const DEBUG_ROUTER_SYNOPSIS =
  'debug:router [--routes ROUTES] [--format FORMAT] [--show-controllers] [--show-aliases] [--check] [--] [<name>]';

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function isFormat(format: string): format is DebugRouterFormat {
  return (DEBUG_ROUTER_FORMATS as readonly string[]).includes(format);
}

function describeList(
  routes: NamedRoute[], format: DebugRouterFormat, showControllers: boolean, palette: Palette, aliases?: ReverseAliases,
): string {
  if (format === 'json') return describeRouteCollectionJson(routes, aliases);
  const io = new ConsoleStyle(DEFAULT_TERMINAL_WIDTH, palette);
  io.table(describeRouteCollectionText(routes, showControllers, palette, aliases));
  return io.toString();
}

/**
 * The `debug:router [name]` console command (Symfony FrameworkBundle `RouterDebugCommand`, with
 * `TextDescriptor` and `JsonDescriptor`), run non-interactively:
 * - without a name: the route list, columns Name | Method | Scheme | Host | Path (and Controller
 *   with `showControllers`), `ANY` for empty methods, schemes or host, followed by a blank line;
 * - with the name of a route: its single-route view (see `describeRouteText`);
 * - with part of a name: the only route whose name contains it, or the list of those that do;
 * - otherwise: the error `The route "<name>" does not exist.` on stderr, exit code 1.
 *
 * An unsupported format gives `Unsupported format "<format>".` the same way (checked after the
 * name, as Symfony's `DescriptorHelper` does).
 *
 * With `check`, it compiles every route instead (see `routerCheck`): ` [OK] …`, or one
 * ` [ERROR] Route "<name>" is invalid: …` block per route that does not compile and exit code 1.
 *
 * @param routes - the routing table
 * @param options - see {@link DebugRouterOptions}
 * @returns `{ output, exitCode, stream }`: the text, 0 or 1, and `stdout` or (for an error) `stderr`
 * @throws InvalidRouteError when a route to describe does not compile
 */
export function debugRouter(routes: RouteCollection, options: DebugRouterOptions = {}): CommandResult {
  const format = options.format ?? 'txt';
  const width = options.terminalWidth ?? DEFAULT_TERMINAL_WIDTH;
  if (options.check === true) return routerCheck(routes, { terminalWidth: width, palette: options.palette });
  const showControllers = options.showControllers ?? false;
  const palette = options.palette ?? PLAIN;
  const fail = (message: string): CommandResult => ({
    output: renderThrowable(message, DEBUG_ROUTER_SYNOPSIS, width, options.errorPalette ?? PLAIN),
    exitCode: 1,
    stream: 'stderr',
  });
  const aliases = options.showAliases === true ? reverseAliases(routes) : undefined;
  const all: NamedRoute[] = routes.all();
  let name = options.name;

  if (name === undefined || name === '') {
    if (!isFormat(format)) return fail(`Unsupported format "${format}".`);
    return { output: describeList(all, format, showControllers, palette, aliases), exitCode: 0, stream: 'stdout' };
  }

  let route = routes.get(name);
  const needle = asciiLower(name);
  const matching = all.filter(([n]) => asciiLower(n).includes(needle));
  if (route === undefined && matching.length > 1) {
    if (!isFormat(format)) return fail(`Unsupported format "${format}".`);
    return { output: describeList(matching, format, showControllers, palette, aliases), exitCode: 0, stream: 'stdout' };
  }
  if (route === undefined && matching.length === 1) [name, route] = matching[0];
  if (route === undefined) return fail(`The route "${name}" does not exist.`);
  if (!isFormat(format)) return fail(`Unsupported format "${format}".`);

  const output = format === 'json' ? describeRouteJson(route) : describeRouteText(name, route, palette);
  return { output, exitCode: 0, stream: 'stdout' };
}
