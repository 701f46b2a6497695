import { MemoryProfilerStorage } from '../../src/profiler/storage/MemoryProfilerStorage';
import { profilerList, profilerPurge, profilerStorageConfig, runProfilerCommand, PROFILER_LIST_SYNOPSIS } from '../../src/cli/profilerCommands';
import { makeProfile, T0 } from '../profiler/storage/profiles';

const now = (): number => T0 + 3600_000;

async function fleet(): Promise<MemoryProfilerStorage> {
  const store = new MemoryProfilerStorage({ now });
  await store.write(makeProfile('aaaaaa', 1, { ip: '10.0.0.1', method: 'GET', url: 'http://localhost/api/books', statusCode: 200 }));
  await store.write(makeProfile('bbbbbb', 2, { ip: '::1', method: 'POST', url: 'http://localhost/api/books', statusCode: 201 }));
  await store.write(makeProfile('cccccc', 3, { ip: '10.0.0.2', method: 'GET', url: 'http://localhost/nope?x=100%25', statusCode: 404 }));
  return store;
}

describe('profilerList(storage, criteria)', () => {
  it('prints a table of the profiles, newest first, and exits 0', async () => {
    const result = await profilerList(await fleet());
    expect(result).toEqual({ exitCode: 0, stream: 'stdout', output: [
      '',
      ' -------- ---------- -------- -------- -------------------------------- -------------------------- ',
      '  Token    IP         Method   Status   URL                              Time                      ',
      ' -------- ---------- -------- -------- -------------------------------- -------------------------- ',
      '  cccccc   10.0.0.2   GET      404      http://localhost/nope?x=100%25   2024-01-01T00:00:03.000Z  ',
      '  bbbbbb   ::1        POST     201      http://localhost/api/books       2024-01-01T00:00:02.000Z  ',
      '  aaaaaa   10.0.0.1   GET      200      http://localhost/api/books       2024-01-01T00:00:01.000Z  ',
      ' -------- ---------- -------- -------- -------------------------------- -------------------------- ',
      '',
      ' 3 profiles, newest first.',
      '',
    ].join('\n') });
  });

  it.each<[string, Parameters<typeof profilerList>[1], string[]]>([
    ['--ip', { ip: '10.0.0' }, ['cccccc', 'aaaaaa']],
    ['--method, in any case', { method: 'post' }, ['bbbbbb']],
    ['--status', { status: '404' }, ['cccccc']],
    ['--url, literally', { url: '100%' }, ['cccccc']],
    ['--start, in ms', { start: String(T0 + 2000) }, ['cccccc', 'bbbbbb']],
    ['--end, as a date', { end: '2024-01-01T00:00:02Z' }, ['bbbbbb', 'aaaaaa']],
    ['--limit', { limit: '1' }, ['cccccc']],
  ])('filters by %s', async (_option, criteria, tokens) => {
    const { output } = await profilerList(await fleet(), criteria);
    expect([...output.matchAll(/^ {2}([0-9a-f]{6}) /gm)].map((m) => m[1])).toEqual(tokens);
  });

  it('says when nothing matches, exit 0', async () => {
    const result = await profilerList(await fleet(), { status: '500' });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe(`\n${' [INFO] No profiles found.'.padEnd(80)}\n\n`);
  });

  it.each([
    [{ status: 'abc' }, 'The "--status" option expects a whole number from 100 to 599, "abc" given.'],
    [{ status: '99' }, 'The "--status" option expects a whole number from 100 to 599, "99" given.'],
    [{ limit: '0' }, 'The "--limit" option expects a whole number from 1 to 1000000, "0" given.'],
    [{ limit: '-3' }, 'The "--limit" option expects a whole number from 1 to 1000000, "-3" given.'],
    [{ start: 'yesterday' }, 'The "--start" option expects milliseconds since the epoch or a date such as 2024-05-01T10:00:00Z, "yesterday" given.'],
  ])('prints an [ERROR] block for %p and exits 1', async (criteria, message) => {
    const result = await profilerList(await fleet(), criteria);
    expect(result).toMatchObject({ exitCode: 1, stream: 'stdout' });
    expect(result.output.startsWith('\n [ERROR] ')).toBe(true);
    expect(result.output.replace(/\s+/g, ' ')).toBe(` [ERROR] ${message} `);
  });
});

describe('profilerPurge(storage)', () => {
  it('deletes every profile and says so', async () => {
    const store = await fleet();
    expect(await profilerPurge(store)).toEqual({ exitCode: 0, stream: 'stdout', output: `\n${' [OK] All profiles were purged.'.padEnd(80)}\n\n` });
    expect(await store.find({})).toEqual([]);
  });
});

describe('profilerStorageConfig(selection, env)', () => {
  const env = { REDIS_URL: 'redis://r:6379', PROFILER_SQLITE: '/data/p.sqlite' };
  const maxAgeSeconds = 315_360_000;

  it.each<[string, Parameters<typeof profilerStorageConfig>[0], NodeJS.ProcessEnv, object]>([
    ['--redis first', { redis: 'redis://x' }, env, { redisUrl: 'redis://x', maxAgeSeconds }],
    ['--sqlite over the environment', { sqlite: 'a.sqlite' }, env, { sqlitePath: 'a.sqlite', maxAgeSeconds }],
    ['then REDIS_URL', {}, env, { redisUrl: 'redis://r:6379', maxAgeSeconds }],
    ['then PROFILER_SQLITE', {}, { PROFILER_SQLITE: '/data/p.sqlite' }, { sqlitePath: '/data/p.sqlite', maxAgeSeconds }],
    ['else var/profiler.sqlite', {}, { REDIS_URL: '', PROFILER_SQLITE: '' }, { sqlitePath: 'var/profiler.sqlite', maxAgeSeconds }],
  ])('takes %s', (_what, selection, environment, config) => {
    expect(profilerStorageConfig(selection, environment)).toEqual(config);
  });

  it('refuses both --sqlite and --redis', () => {
    expect(() => profilerStorageConfig({ sqlite: 'a', redis: 'redis://x' }, {}))
      .toThrow('The "--sqlite" and "--redis" options cannot be used together: choose one store.');
  });
});

describe('runProfilerCommand(synopsis, selection, command)', () => {
  it('renders a failure to open the store on stderr, exit 1', async () => {
    const result = await runProfilerCommand(PROFILER_LIST_SYNOPSIS, { redis: 'not-a-url' }, async () => { throw new Error('not reached'); }, { terminalWidth: 200 });
    expect(result.exitCode).toBe(1);
    expect(result.stream).toBe('stderr');
    expect(result.output).toContain('  The Redis URL "not-a-url" given by the "--redis <url>" option is not a redis:// or rediss:// URL');
    expect(result.output.endsWith(`\n${PROFILER_LIST_SYNOPSIS}\n\n`)).toBe(true);
  });

  it("renders the command's own failure, and still closes the store", async () => {
    const result = await runProfilerCommand('x', { sqlite: ':memory:' }, async () => { throw new Error('store failed'); });
    expect(result).toMatchObject({ exitCode: 1, stream: 'stderr' });
    expect(result.output).toContain('  store failed  ');
  });
});
