#!/usr/bin/env node
/**
 * The `express-kernel` console (`bin/console` of a Symfony app, for the routing commands): wires
 * the command functions to commander and to the process. Everything else lives in the modules
 * it imports, which can be tested without a process.
 */
import { Command } from 'commander';
import { debugRouter, DEBUG_ROUTER_SYNOPSIS } from './debugRouter';
import { loadRoutes } from './loadRoutes';
import { PROFILER_LIST_SYNOPSIS, PROFILER_PURGE_SYNOPSIS, ProfilerListCriteria, profilerList, profilerPurge, ProfilerStorageSelection, runProfilerCommand } from './profilerCommands';
import type { CommandResult } from './result';
import { routerMatch, ROUTER_MATCH_SYNOPSIS } from './routerMatch';
import { renderThrowable, terminalWidth } from './style';

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
    result = { output: renderThrowable(message, synopsis, width), exitCode: 1, stream: 'stderr' };
  }
  emit(result);
}

const program = new Command();
program
  .name('express-kernel')
  .description('express-kernel console: routing commands (Symfony FrameworkBundle debug:router, router:match)');

program
  .command('debug:router')
  .description('Display current routes for an application')
  .argument('[name]', 'A route name')
  .option('--routes <module>', 'A module exporting the RouteCollection (default export, "routes", or createRoutes()); default: the demo table')
  .option('--format <format>', 'The output format (txt, json)', 'txt')
  .option('--show-controllers', 'Show assigned controllers in overview', false)
  .option('--show-aliases', 'Show aliases in overview', false)
  .action((name: string | undefined, opts: { routes?: string; format: string; showControllers: boolean; showAliases: boolean }) => {
    const width = terminalWidth();
    run(DEBUG_ROUTER_SYNOPSIS, width, () =>
      debugRouter(loadRoutes(opts.routes), {
        name, format: opts.format, showControllers: opts.showControllers, showAliases: opts.showAliases, terminalWidth: width,
      }));
  });

program
  .command('router:match')
  .description('Help debug routes by simulating a path info match')
  .argument('<path_info>', 'A path info')
  .option('--method <method>', 'Set the HTTP method', 'GET')
  .option('--scheme <scheme>', 'Set the URI scheme (usually http or https)', 'http')
  .option('--host <host>', 'Set the URI host', 'localhost')
  .option('--routes <module>', 'A module exporting the RouteCollection (default export, "routes", or createRoutes()); default: the demo table')
  .option('-v, --verbose', 'Also show the routes that do not match, and why', false)
  .action((pathInfo: string, opts: { method: string; scheme: string; host: string; routes?: string; verbose: boolean }) => {
    const width = terminalWidth();
    run(ROUTER_MATCH_SYNOPSIS, width, () =>
      routerMatch(loadRoutes(opts.routes), pathInfo, {
        method: opts.method, scheme: opts.scheme, host: opts.host, verbose: opts.verbose, terminalWidth: width,
      }));
  });

const STORAGE_HELP = {
  sqlite: 'The SQLite file of the profiles (default: $PROFILER_SQLITE, else var/profiler.sqlite)',
  redis: 'The Redis URL of the profiles (default: $REDIS_URL)',
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
    emit(await runProfilerCommand(PROFILER_LIST_SYNOPSIS, opts, (storage) => profilerList(storage, { ...opts, terminalWidth: width }), { terminalWidth: width }));
  });

program
  .command('profiler:purge')
  .description('Delete every stored profile')
  .option('--sqlite <path>', STORAGE_HELP.sqlite)
  .option('--redis <url>', STORAGE_HELP.redis)
  .action(async (opts: ProfilerStorageSelection) => {
    const width = terminalWidth();
    emit(await runProfilerCommand(PROFILER_PURGE_SYNOPSIS, opts, (storage) => profilerPurge(storage, { terminalWidth: width }), { terminalWidth: width }));
  });

program.parse(process.argv);
