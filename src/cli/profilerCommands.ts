import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatMessage } from '../errors/codes';
import { isKernelError, KernelError } from '../errors/KernelError';
import type { ProfileCriteria } from '../profiler/Profile';
import { createProfilerStorage, ProfilerStorageConfig } from '../profiler/storage/createProfilerStorage';
import type { ClosableProfilerStorage, ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import { MAX_AGE_SECONDS } from '../profiler/storage/retention';
import { DEFAULT_SQLITE_PATH } from '../profiler/storage/SqliteProfilerStorage';
import type { CommandResult } from './result';
import { ConsoleStyle, DEFAULT_TERMINAL_WIDTH, PLAIN, renderThrowable, type Palette } from './style';
import { renderTable } from './table';

export const PROFILER_LIST_SYNOPSIS =
  'profiler:list [--ip IP] [--method METHOD] [--status STATUS] [--url URL] [--start START] [--end END] '
  + '[--limit LIMIT] [--sqlite SQLITE] [--redis REDIS]';
export const PROFILER_PURGE_SYNOPSIS = 'profiler:purge [--sqlite SQLITE] [--redis REDIS]';

/** The search options of `profiler:list`, as typed on the command line. */
export interface ProfilerListCriteria {
  /** Client IP, or part of it. */
  ip?: string;
  /** HTTP method, in any case. */
  method?: string;
  /** Response status code, e.g. `404`. */
  status?: string;
  /** Part of the URL (case-sensitive; `%` and `_` are plain characters). */
  url?: string;
  /** Earliest request start: ms since the epoch, or a date `Date.parse` reads (`2024-05-01T10:00Z`). */
  start?: string;
  /** Latest request start, as `start`. */
  end?: string;
  /** How many profiles at most, from 1. @default '10' */
  limit?: string;
  /** The terminal width, for the blocks. @default 80 */
  terminalWidth?: number;
  /** The colours of stdout (see `paletteFor`). @default PLAIN */
  palette?: Palette;
}

/** Where the profiles are: the `--sqlite` and `--redis` options of the profiler commands. */
export interface ProfilerStorageSelection {
  sqlite?: string;
  redis?: string;
}

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_CLI_INVALID_OPTION: InvalidOption;
  }
}

/**
 * A command-line option that does not parse (code `ERR_CLI_INVALID_OPTION`): `The "--<name>"
 * option expects <what>, "<value>" given.`, printed as an `[ERROR]` block (Symfony Console's
 * `InvalidOptionException`).
 */
export class InvalidOption extends KernelError {
  override name = 'InvalidOption';
  declare readonly code: 'ERR_CLI_INVALID_OPTION';
  /**
   * @param option - the option's name without dashes, e.g. `limit`
   * @param expected - what it takes, e.g. `a whole number from 1 to 1000000`
   * @param value - the value given
   */
  constructor(option: string, expected: string, value: string) {
    super('ERR_CLI_INVALID_OPTION', formatMessage('ERR_CLI_INVALID_OPTION', option, expected, value));
  }
}

function integer(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new InvalidOption(name, `a whole number from ${min} to ${max}`, value);
  }
  return Number(value);
}

function moment(name: string, value: string): number {
  const ms = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new InvalidOption(name, 'milliseconds since the epoch or a date such as 2024-05-01T10:00:00Z', value);
  }
  return ms;
}

/** Turns the command-line options into store criteria. @throws InvalidOption */
function criteriaOf(options: ProfilerListCriteria): ProfileCriteria {
  const criteria: ProfileCriteria = {
    limit: options.limit === undefined ? 10 : integer('limit', options.limit, 1, 1_000_000),
  };
  if (options.ip !== undefined) criteria.ip = options.ip;
  if (options.method !== undefined) criteria.method = options.method;
  if (options.url !== undefined) criteria.url = options.url;
  if (options.status !== undefined) criteria.statusCode = integer('status', options.status, 100, 599);
  if (options.start !== undefined) criteria.start = moment('start', options.start);
  if (options.end !== undefined) criteria.end = moment('end', options.end);
  return criteria;
}

/**
 * `profiler:list`: the stored profiles matching the options, newest first, as a table
 * `Token | IP | Method | Status | URL | Time` (time in UTC, ISO 8601), then how many were listed.
 * An invalid option prints an `[ERROR]` block and exits 1.
 * @returns `{ output, exitCode: 0 | 1, stream: 'stdout' }`
 * @throws Error when the store fails
 */
export async function profilerList(
  storage: ProfilerStorage,
  criteria: ProfilerListCriteria = {},
): Promise<CommandResult> {
  const palette = criteria.palette ?? PLAIN;
  const io = new ConsoleStyle(criteria.terminalWidth ?? DEFAULT_TERMINAL_WIDTH, palette);
  let search: ProfileCriteria;
  try {
    search = criteriaOf(criteria);
  } catch (e) {
    if (!isKernelError(e, 'ERR_CLI_INVALID_OPTION')) throw e;
    io.error(e.message);
    return { output: io.toString(), exitCode: 1, stream: 'stdout' };
  }
  const found = await storage.find(search);
  if (found.length === 0) {
    io.info('No profiles found.');
    return { output: io.toString(), exitCode: 0, stream: 'stdout' };
  }
  const rows = found.map((p) => [p.token, p.ip, p.method, String(p.statusCode), p.url, new Date(p.time).toISOString()]);
  io.newLine();
  io.table(renderTable(['Token', 'IP', 'Method', 'Status', 'URL', 'Time'], rows, 'symfony-style-guide', palette.info));
  io.text(`${found.length} profile${found.length === 1 ? '' : 's'}, newest first.`);
  return { output: io.toString(), exitCode: 0, stream: 'stdout' };
}

/**
 * `profiler:purge`: deletes every stored profile.
 * @returns `{ output, exitCode: 0, stream: 'stdout' }`
 * @throws Error when the store fails
 */
export async function profilerPurge(
  storage: ProfilerStorage,
  options: { terminalWidth?: number; palette?: Palette } = {},
): Promise<CommandResult> {
  await storage.purge();
  const io = new ConsoleStyle(options.terminalWidth ?? DEFAULT_TERMINAL_WIDTH, options.palette);
  io.success('All profiles were purged.');
  return { output: io.toString(), exitCode: 0, stream: 'stdout' };
}

/**
 * Which store the profiler commands open: `--redis`, else `--sqlite`; with neither, the
 * environment as the service reads it (`REDIS_URL`, else `PROFILER_SQLITE`), else
 * `var/profiler.sqlite`. The commands never write, so the caps do not apply; the age cap is the
 * widest, to list every profile the service's own cap still keeps.
 * @throws Error when both options are given
 */
export function profilerStorageConfig(
  selection: ProfilerStorageSelection,
  env: NodeJS.ProcessEnv = process.env,
): ProfilerStorageConfig {
  if (selection.redis !== undefined && selection.sqlite !== undefined) {
    throw new Error('The "--sqlite" and "--redis" options cannot be used together: choose one store.');
  }
  const maxAgeSeconds = MAX_AGE_SECONDS;
  if (selection.redis !== undefined) return { redisUrl: selection.redis, maxAgeSeconds };
  if (selection.sqlite !== undefined) return { sqlitePath: selection.sqlite, maxAgeSeconds };
  if (env.REDIS_URL) return { redisUrl: env.REDIS_URL, maxAgeSeconds };
  return { sqlitePath: env.PROFILER_SQLITE || DEFAULT_SQLITE_PATH, maxAgeSeconds };
}

const REDIS_FLAG = '"--redis <url>"';
const SQLITE_FLAG = '"--sqlite <path>"';

/** Where a store setting came from, to name it in an error: the option, else the variable. */
function origin(option: string, variable: string, fromOption: boolean): string {
  return fromOption ? `the ${option} option` : `${variable} (or the ${option} option)`;
}

/** The store of {@link profilerStorageConfig}, opened read-only in spirit: nothing is created. */
async function openStore(
  selection: ProfilerStorageSelection,
  env: NodeJS.ProcessEnv,
): Promise<ClosableProfilerStorage> {
  const config = profilerStorageConfig(selection, env);
  const url = config.redisUrl;
  if (url !== undefined) {
    const from = origin(REDIS_FLAG, 'REDIS_URL', selection.redis !== undefined);
    if (!/^rediss?:\/\/./.test(url)) {
      throw new Error(`The Redis URL "${url}" given by ${from} is not a redis:// or rediss:// URL, `
        + 'e.g. redis://127.0.0.1:6379.');
    }
    try {
      return await createProfilerStorage(config);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error))
        .replace(/^.*cannot connect to Redis at "[^"]*": /, '');
      throw new Error(`Cannot connect to Redis at "${url}" given by ${from}: ${reason}`, { cause: error });
    }
  }
  const file = config.sqlitePath ?? DEFAULT_SQLITE_PATH;
  if (file !== ':memory:' && !fs.existsSync(file)) {
    const from = selection.sqlite !== undefined ? `the ${SQLITE_FLAG} option`
      : env.PROFILER_SQLITE ? 'PROFILER_SQLITE' : 'the default';
    throw new Error(`The SQLite file "${file}" (${path.resolve(file)}, from ${from}) does not exist, and the profiler `
      + `commands do not create it: pass the file the service writes its profiles to with ${SQLITE_FLAG}, `
      + `or a Redis store with ${REDIS_FLAG}.`);
  }
  return createProfilerStorage(config);
}

/**
 * Opens the selected store, runs a command on it and closes the store. The store is never
 * created: a SQLite file that does not exist is an error naming the file and `--sqlite <path>`;
 * a Redis URL that is malformed or unreachable is an error naming `--redis <url>` (or
 * `REDIS_URL` when the URL came from it). A failure (bad option, store that cannot be opened or
 * that fails) is rendered as Symfony's console application renders an exception: on stderr,
 * exit code 1.
 * @param synopsis - the command's usage line, printed under an error
 * @param selection - the `--sqlite` / `--redis` options
 * @param command - the command to run on the open store
 * @param options - `env` (for `REDIS_URL`, `PROFILER_SQLITE`), `terminalWidth`, and `errorPalette`
 *   (the colours of stderr)
 * @returns the command's result, or the rendered error
 */
export async function runProfilerCommand(
  synopsis: string,
  selection: ProfilerStorageSelection,
  command: (storage: ProfilerStorage) => Promise<CommandResult>,
  options: { env?: NodeJS.ProcessEnv; terminalWidth?: number; errorPalette?: Palette } = {},
): Promise<CommandResult> {
  try {
    const storage = await openStore(selection, options.env ?? process.env);
    try {
      return await command(storage);
    } finally {
      await storage.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const output = renderThrowable(message, synopsis, options.terminalWidth, options.errorPalette);
    return { output, exitCode: 1, stream: 'stderr' };
  }
}
