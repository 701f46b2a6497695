import { isKernelError } from '../errors/KernelError';
import { compileNamed } from '../routing/RouteCompiler';
import type { RouteCollection } from '../routing/RouteCollection';
import type { CommandResult } from './result';
import { ConsoleStyle, DEFAULT_TERMINAL_WIDTH, PLAIN, type Palette } from './style';

/** How {@link routerCheck} prints; all fields are optional. */
export interface RouterCheckOptions {
  /** Terminal width in columns, for wrapping the blocks. @default 80 */
  terminalWidth?: number;
  /** The colours of stdout (see `paletteFor`). @default PLAIN */
  palette?: Palette;
}

/**
 * `debug:router --check`: compiles every route, in matching order, as the kernel's matcher and a
 * generator do when they are built (a route file's routes are not compiled when it is loaded, as
 * in Symfony, whose router compiles them on first use). For CI: a route that cannot compile (a
 * UTF-8 path without the `utf8` option, a requirement that is not a regular expression, a
 * variable used twice) fails the build rather than the application's start.
 * - every route compiles: ` [OK] All <n> routes compile.`, exit code 0;
 * - otherwise: one ` [ERROR] Route "<name>" is invalid: <reason>` block per route that does not
 *   (all of them, not only the first), then ` [ERROR] <k> of <n> routes do not compile.`, exit
 *   code 1, on stdout (as `router:match` reports a miss).
 * Not a Symfony command: Symfony finds these errors when its router cache is warmed up.
 * @param routes - the routing table
 * @param options - see {@link RouterCheckOptions}
 * @returns `{ output, exitCode: 0 | 1, stream: 'stdout' }`
 */
export function routerCheck(routes: RouteCollection, options: RouterCheckOptions = {}): CommandResult {
  const io = new ConsoleStyle(options.terminalWidth ?? DEFAULT_TERMINAL_WIDTH, options.palette ?? PLAIN);
  const all = routes.all();
  let failed = 0;
  for (const [name, route] of all) {
    try {
      compileNamed(name, route);
    } catch (error) {
      if (!isKernelError(error, 'ERR_ROUTING_INVALID_ROUTE')) throw error;
      failed++;
      io.error(error.message);
    }
  }
  const count = (n: number) => `${n} route${n === 1 ? '' : 's'}`;
  if (failed === 0) {
    io.success(all.length === 1 ? 'The route compiles.' : `All ${count(all.length)} compile.`);
    return { output: io.toString(), exitCode: 0, stream: 'stdout' };
  }
  io.error(`${failed} of ${count(all.length)} ${failed === 1 ? 'does' : 'do'} not compile.`);
  return { output: io.toString(), exitCode: 1, stream: 'stdout' };
}
