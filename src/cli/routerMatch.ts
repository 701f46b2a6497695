import { createRequestContext } from '../routing/RequestContext';
import type { RouteCollection } from '../routing/RouteCollection';
import { TraceableUrlMatcher, TraceLevel } from '../routing/matcher/TraceableUrlMatcher';
import { describeRouteText } from './descriptor';
import type { CommandResult } from './result';
import { ConsoleStyle, DEFAULT_TERMINAL_WIDTH, PLAIN, type Palette } from './style';

/** How `router:match` is called; all fields are optional. */
export interface RouterMatchOptions {
  /** The request method, uppercased. @default 'GET' */
  method?: string;
  /** The request scheme, lowercased. @default 'http' */
  scheme?: string;
  /** The request host, lowercased, without port. @default 'localhost' */
  host?: string;
  /** Also print why each other route does not match (`-v`). @default false */
  verbose?: boolean;
  /** Terminal width in columns: the `[OK]`/`[ERROR]` blocks are `min(width, 120)` wide. @default 80 */
  terminalWidth?: number;
  /** The colours of stdout (see `paletteFor`). @default PLAIN */
  palette?: Palette;
}

/** The usage line shown under an error, in Symfony's synopsis notation. */
export const ROUTER_MATCH_SYNOPSIS = 'router:match [--method METHOD] [--scheme SCHEME] [--host HOST] [--routes ROUTES] '
  + '[-v|--verbose] [--] <path_info>';

/** PHP's `lcfirst()`: the first character in lower case (ASCII only, as PHP 8.2). */
function lcfirst(text: string): string {
  return text.replace(/^[A-Z]/, (c) => c.toLowerCase());
}

/**
 * The `router:match <path_info>` console command (Symfony FrameworkBundle `RouterMatchCommand`):
 * runs the {@link TraceableUrlMatcher} over the table and prints, after a blank line, for each
 * route in matching order up to the first that matches:
 * - ` Route "<name>" almost matches but <log with its first letter lowercased>`;
 * - with `verbose`, ` Route "<name>" does not match: <log>`;
 * - for the matching route, the block ` [OK] Route "<name>" matches` and then the output of
 *   `debug:router <name>` (its single-route table).
 *
 * When no route matches, it ends with the block ` [ERROR] None of the routes match the path
 * "<path_info>"` and exit code 1. Blocks are padded with spaces to the line length and framed
 * by blank lines, as `SymfonyStyle` prints them on an undecorated output; everything goes to
 * stdout.
 *
 * @param routes - the routing table
 * @param pathInfo - the raw path info, e.g. `/api/books/5`
 * @param options - see {@link RouterMatchOptions}
 * @returns `{ output, exitCode: 0 | 1, stream: 'stdout' }`
 * @throws InvalidRouteError when a route does not compile
 */
export function routerMatch(
  routes: RouteCollection,
  pathInfo: string,
  options: RouterMatchOptions = {},
): CommandResult {
  const context = createRequestContext({ method: options.method, scheme: options.scheme, host: options.host });
  const traces = new TraceableUrlMatcher(routes).getTraces(pathInfo, {
    method: context.method,
    host: context.host,
    scheme: context.scheme,
  });

  const palette = options.palette ?? PLAIN;
  const io = new ConsoleStyle(options.terminalWidth ?? DEFAULT_TERMINAL_WIDTH, palette);
  io.newLine();
  let matches = false;
  for (const trace of traces) {
    if (trace.level === TraceLevel.ROUTE_ALMOST_MATCHES) {
      io.text(`Route ${palette.info(`"${trace.name}"`)} almost matches but ${lcfirst(trace.log)}`);
    } else if (trace.level === TraceLevel.ROUTE_MATCHES) {
      io.success(`Route "${trace.name}" matches`);
      const route = routes.get(trace.name);
      if (route !== undefined) io.raw(describeRouteText(trace.name, route, palette));
      matches = true;
    } else if (options.verbose === true) {
      io.text(`Route "${trace.name}" does not match: ${trace.log}`);
    }
  }

  if (!matches) {
    io.error(`None of the routes match the path "${pathInfo}"`);
    return { output: io.toString(), exitCode: 1, stream: 'stdout' };
  }
  return { output: io.toString(), exitCode: 0, stream: 'stdout' };
}
