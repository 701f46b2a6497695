#!/usr/bin/env node
/**
 * The `express-kernel` console (`bin/console` of a Symfony app, for the routing commands): wires
 * the command functions to commander and to the process. Everything else lives in the modules
 * it imports, which can be tested without a process.
 */
import { Command } from 'commander';
import { debugRouter, DEBUG_ROUTER_SYNOPSIS } from './debugRouter';
import { loadRoutes } from './loadRoutes';
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
  .action((name: string | undefined, opts: { routes?: string; format: string; showControllers: boolean }) => {
    const width = terminalWidth();
    run(DEBUG_ROUTER_SYNOPSIS, width, () =>
      debugRouter(loadRoutes(opts.routes), { name, format: opts.format, showControllers: opts.showControllers, terminalWidth: width }));
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

program.parse(process.argv);
