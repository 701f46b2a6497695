#!/usr/bin/env node
/**
 * The `express-kernel` console (`bin/console` of a Symfony app, for the routing commands): wires
 * the command functions to commander and to the process. Everything else lives in the modules
 * it imports, which can be tested without a process.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { debugRouter, DEBUG_ROUTER_SYNOPSIS } from './debugRouter';
import { loadRoutes } from './loadRoutes';
import { DEFAULT_SQLITE_PATH } from '../profiler/storage/SqliteProfilerStorage';
import {
  PROFILER_LIST_SYNOPSIS, PROFILER_PURGE_SYNOPSIS, ProfilerListCriteria, profilerList, profilerPurge,
  ProfilerStorageSelection,
  runProfilerCommand,
} from './profilerCommands';
import type { CommandResult } from './result';
import { routerMatch, ROUTER_MATCH_SYNOPSIS } from './routerMatch';
import { paletteFor, renderThrowable, terminalWidth } from './style';

/** The colours of each stream: on a terminal only, unless NO_COLOR / FORCE_COLOR say otherwise. */
const palette = paletteFor(process.stdout);
const errorPalette = paletteFor(process.stderr);

/** The version of the installed package (dist/cli/main.js sits two levels under its root). */
function packageVersion(): string {
  const file = path.join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

function emit(result: CommandResult): void {
  const stream = result.stream === 'stderr' ? process.stderr : process.stdout;
  stream.write(result.output, () => process.exit(result.exitCode));
}

/** Runs a command; an error it throws is rendered as Symfony's console application renders it. */
function run(synopsis: string, width: number, command: () => CommandResult): void {
  let result: CommandResult;
  try {
    result = command();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = { output: renderThrowable(message, synopsis, width, errorPalette), exitCode: 1, stream: 'stderr' };
  }
  emit(result);
}

const ROUTES_HELP = 'The routes module (.js, .cjs, .mjs, .json, .ts, .mts, .cts) exporting a RouteCollection '
  + '(default export or "routes") or a function returning one (default, "routes" or createRoutes)';

const ROUTES_SOURCES = `
Where the routes come from, first found:
  1. --routes <module>;
  2. the module named by express-kernel.config.{js,cjs,mjs,ts} in the current directory,
     e.g. module.exports = { routes: './src/routes.ts' } (or the same object as default export);
  3. otherwise the built-in demo routing table.
TypeScript modules are loaded through tsx.`;

const program = new Command();
program
  .name('express-kernel')
  .description('express-kernel console: routing commands (Symfony FrameworkBundle debug:router, router:match) '
    + 'and the profile store (profiler:list, profiler:purge)')
  .version(packageVersion(), '-V, --version', 'Display the express-kernel version')
  .showHelpAfterError(true);

program
  .command('debug:router')
  .description('Display current routes for an application')
  .argument('[name]', 'A route name')
  .option('--routes <module>', ROUTES_HELP)
  .option('--format <format>', 'The output format (txt, json)', 'txt')
  .option('--show-controllers', 'Show assigned controllers in overview (the controller function\'s name)', false)
  .option('--show-aliases', 'Show aliases in overview', false)
  .option('--check', 'Compile every route instead (for CI): exit 1, naming each route that does not compile', false)
  .addHelpText('after', ROUTES_SOURCES)
  .action((name: string | undefined,
    opts: { routes?: string; format: string; showControllers: boolean; showAliases: boolean; check: boolean }) => {
    const width = terminalWidth();
    run(DEBUG_ROUTER_SYNOPSIS, width, () => debugRouter(loadRoutes(opts.routes), {
      name, format: opts.format, showControllers: opts.showControllers, showAliases: opts.showAliases,
      check: opts.check, terminalWidth: width, palette, errorPalette,
    }));
  });

program
  .command('router:match')
  .description('Help debug routes by simulating a path info match')
  .argument('<path_info>', 'A path info')
  .option('--method <method>', 'Set the HTTP method', 'GET')
  .option('--scheme <scheme>', 'Set the URI scheme (usually http or https)', 'http')
  .option('--host <host>', 'Set the URI host', 'localhost')
  .option('--routes <module>', ROUTES_HELP)
  .option('-v, --verbose', 'Also show the routes that do not match, and why', false)
  .addHelpText('after', ROUTES_SOURCES)
  .action((
    pathInfo: string,
    opts: { method: string; scheme: string; host: string; routes?: string; verbose: boolean },
  ) => {
    const width = terminalWidth();
    run(ROUTER_MATCH_SYNOPSIS, width, () =>
      routerMatch(loadRoutes(opts.routes), pathInfo, {
        method: opts.method, scheme: opts.scheme, host: opts.host, verbose: opts.verbose, terminalWidth: width, palette,
      }));
  });

const STORAGE_HELP = {
  sqlite: `The SQLite file of the profiles (default: $PROFILER_SQLITE, else ${DEFAULT_SQLITE_PATH}); never created`,
  redis: 'The Redis URL of the profiles, redis:// or rediss:// (default: $REDIS_URL)',
};

program
  .command('profiler:list')
  .description('List the stored profiles, newest first')
  .option('--ip <ip>', 'Filter by client IP (or part of it)')
  .option('--method <method>', 'Filter by HTTP method')
  .option('--status <status>', 'Filter by response status code')
  .option('--url <url>', 'Filter by part of the URL')
  .option('--start <start>', 'Requests started at or after (ms since the epoch, or a date)')
  .option('--end <end>', 'Requests started at or before (ms since the epoch, or a date)')
  .option('--limit <limit>', 'How many profiles at most', '10')
  .option('--sqlite <path>', STORAGE_HELP.sqlite)
  .option('--redis <url>', STORAGE_HELP.redis)
  .action(async (opts: ProfilerListCriteria & ProfilerStorageSelection) => {
    const width = terminalWidth();
    emit(await runProfilerCommand(PROFILER_LIST_SYNOPSIS, opts,
      (storage) => profilerList(storage, { ...opts, terminalWidth: width, palette }),
      { terminalWidth: width, errorPalette }));
  });

program
  .command('profiler:purge')
  .description('Delete every stored profile')
  .option('--sqlite <path>', STORAGE_HELP.sqlite)
  .option('--redis <url>', STORAGE_HELP.redis)
  .action(async (opts: ProfilerStorageSelection) => {
    const width = terminalWidth();
    emit(await runProfilerCommand(PROFILER_PURGE_SYNOPSIS, opts,
      (storage) => profilerPurge(storage, { terminalWidth: width, palette }), { terminalWidth: width, errorPalette }));
  });

program.parse(process.argv);
