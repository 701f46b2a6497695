/**
 * API section (issue 9): the API layer against what a developer writes by hand, in the same run.
 *
 * - api: the demo service (`createDemoKernel`, debug off: every layer of the kernel, the Book
 *   resource on the SQL store of `openDemoDatabase`, SQLite), `GET /api/books?page=1` (30 JSON-LD/Hydra items with
 *   `totalItems` and the view) and `GET /api/books/{id}` (one JSON-LD item with its ETag);
 * - peer: Express 5 + better-sqlite3 with two prepared statements (`bench/servers/apiPeer.ts`),
 *   `GET /books?page=1` and `GET /books/{id}`, the same rows as plain JSON.
 * - embedded (issue 25): `GET /bench/books?page=1`, the same 30 books with each author embedded
 *   as a document (serialization groups, `bench/servers/embeddedResources.ts`), against the peer's
 *   `GET /books_with_authors?page=1`, one LEFT JOIN, each book's `author` an object.
 * All read one SQLite file of {@link FIXTURE_ROWS} books (made by the demo's start-up, then
 * topped up). Item requests pick an id at random among the books, the same way for both. Each
 * round forks both servers anew and runs the four cells back to back, api then peer.
 *
 * Options (after `npm run bench -- api`):
 *   --connections=20    autocannon connections
 *   --duration=3        measured seconds per cell
 *   --warmup=1.5        warm-up seconds per cell (same load, not measured)
 *   --rounds=5          rounds; verdicts on the median of per-round ratios (see pairedRatios)
 *   --cells=collection,item,embedded   which pairs of cells to run
 *   --cpu-prof[=DIR]    fork the servers under `node --cpu-prof` and print a summary of each profile
 */
import { openDemoDatabase } from '../src/demo/database';
import { createDemoResources } from '../src/demo/resources';
import { FIXTURE_ROWS, topUpBooks } from './apiFixture';
import { option } from './harness';
import { printCpuProfiles } from './httpCpuProfile';
import {
  checkStatuses, expectStatus, forkOptionsFrom, load, loadavg, medianOf, pairedRatios, printTable, startServer,
  tempFolder, type BenchServer, type LoadResult,
} from './httpHarness';
import type { BenchSection } from './run';

/** Targets: the API layer's share of the hand-written route's throughput (issues 9 and 25). */
const TARGETS = { collection: 0.6, item: 0.8, embedded: 0.5 } as const;
type Pair = keyof typeof TARGETS;
const ACCEPT_JSONLD = { Accept: 'application/ld+json' };

interface Cell {
  readonly id: string;
  readonly label: string;
  readonly server: 'api' | 'peer';
  readonly path: () => string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The fixture: the demo's database module makes the tables and the seed, then the books are topped up. */
async function buildFixture(sqlitePath: string): Promise<{ table: string; authorsTable: string; rows: number }> {
  const store = await openDemoDatabase({ SQLITE_PATH: sqlitePath });
  const resources = createDemoResources(store);
  await store.close();
  const book = resources.find((r) => r.shortName === 'Book');
  const author = resources.find((r) => r.shortName === 'Author');
  if (book === undefined || author === undefined) throw new Error('the demo has no Book or Author resource');
  return {
    table: book.metadata.table, authorsTable: author.metadata.table,
    rows: topUpBooks(sqlitePath, book.metadata, author.metadata.table),
  };
}

async function run(args: readonly string[]): Promise<void> {
  const connections = Number(option(args, 'connections') ?? 20);
  const duration = Number(option(args, 'duration') ?? 3);
  const warmup = Number(option(args, 'warmup') ?? 1.5);
  const rounds = Number(option(args, 'rounds') ?? 5);
  const pairs = (option(args, 'cells') ?? 'collection,item,embedded').split(',');
  const fork = forkOptionsFrom(args, 'api');
  const tmp = tempFolder('api');
  const sqlitePath = tmp.file('api.sqlite');
  const kernelSqlitePath = tmp.file('kernel.sqlite');
  try {
    const fixture = await buildFixture(sqlitePath);
    const randomId = (): number => 1 + Math.floor(Math.random() * fixture.rows);
    const all: readonly Cell[] = [
      {
        id: 'api-collection', label: 'api  GET /api/books?page=1 (JSON-LD)', server: 'api',
        path: () => '/api/books?page=1', headers: ACCEPT_JSONLD,
      },
      { id: 'peer-collection', label: 'peer GET /books?page=1 (JSON)', server: 'peer', path: () => '/books?page=1' },
      {
        id: 'api-item', label: 'api  GET /api/books/{id} (JSON-LD)', server: 'api',
        path: () => `/api/books/${randomId()}`, headers: ACCEPT_JSONLD,
      },
      { id: 'peer-item', label: 'peer GET /books/{id} (JSON)', server: 'peer', path: () => `/books/${randomId()}` },
      {
        id: 'api-embedded', label: 'api  GET /bench/books?page=1 (authors embedded)', server: 'api',
        path: () => '/bench/books?page=1', headers: ACCEPT_JSONLD,
      },
      {
        id: 'peer-embedded', label: 'peer GET /books_with_authors?page=1 (JOIN)', server: 'peer',
        path: () => '/books_with_authors?page=1',
      },
    ];
    const cells = all.filter((c) => pairs.some((p) => c.id.endsWith(`-${p}`)));
    console.log(`fixture: ${fixture.rows.toLocaleString('en-US')} rows in "${fixture.table}" (${sqlitePath})`);
    console.log(`autocannon in this process → two forked servers on 127.0.0.1; -c ${connections}, `
      + `${warmup} s warm-up + ${duration} s measured per cell, ${rounds} round(s)`);
    if (fork.cpuProfDir !== undefined) {
      console.log(`servers run under --cpu-prof (slower): profiles in ${fork.cpuProfDir}`);
    }
    console.log(`load average at start: ${loadavg()}\n`);

    const results = new Map<string, LoadResult[]>();
    for (let round = 0; round < rounds; round++) {
      const servers: Record<Cell['server'], BenchServer> = {
        api: await startServer(`api-r${round + 1}`, { kind: 'api-demo', sqlitePath, kernelSqlitePath }, fork),
        peer: await startServer(`peer-r${round + 1}`, {
          kind: 'api-peer', sqlitePath, table: fixture.table, authorsTable: fixture.authorsTable,
        }, fork),
      };
      try {
        await check(servers);
        for (const cell of cells) {
          const server = servers[cell.server];
          const options = { path: cell.path, connections, headers: cell.headers };
          if (warmup > 0) {
            checkStatuses(cell.label, await load(server, { ...options, duration: warmup, warmup: true }), 200);
          }
          const r = await load(server, { ...options, duration });
          checkStatuses(cell.label, r, 200);
          results.set(cell.id, [...(results.get(cell.id) ?? []), r]);
          const rps = Math.round(r.rps).toLocaleString('en-US').padStart(7);
          console.log(`  round ${round + 1} ${cell.label.padEnd(40)} ${rps} req/s  p99 ${String(r.p99).padStart(3)} ms`
            + `  server CPU ${r.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs/req`);
        }
      } finally {
        await servers.api.stop();
        await servers.peer.stop();
      }
    }
    report(cells, results);
  } finally {
    tmp.cleanup();
  }
  if (fork.cpuProfDir !== undefined) printCpuProfiles(fork.cpuProfDir);
}

/** Fails unless both servers answer what the cells measure: 30 items, one item, the same ids. */
async function check(servers: Record<'api' | 'peer', BenchServer>): Promise<void> {
  const apiPage = await expectStatus(servers.api, '/api/books?page=1', 200, 'application/ld+json');
  const api = JSON.parse(apiPage.body) as { 'hydra:member'?: Array<{ id: number }>; 'hydra:totalItems'?: number };
  const peerPage = await expectStatus(servers.peer, '/books?page=1', 200, 'application/json');
  const apiIds = JSON.stringify((api['hydra:member'] ?? []).map((m) => m.id));
  const peerIds = JSON.stringify((JSON.parse(peerPage.body) as Array<{ id: number }>).map((r) => r.id));
  if ((api['hydra:member'] ?? []).length !== 30 || apiIds !== peerIds) {
    throw new Error(`api and peer disagree on page 1: ${apiIds} vs ${peerIds}`);
  }
  const total = api['hydra:totalItems'] ?? 0;
  if (total < FIXTURE_ROWS) throw new Error(`api: hydra:totalItems ${total} < ${FIXTURE_ROWS}`);
  await expectStatus(servers.api, `/api/books/${FIXTURE_ROWS}`, 200, 'application/ld+json');
  await expectStatus(servers.peer, `/books/${FIXTURE_ROWS}`, 200, 'application/json');
  type Embedded = { id: number; author: { name?: string } | string | null };
  const apiEmbedded = JSON.parse((await expectStatus(servers.api, '/bench/books?page=1', 200, 'application/ld+json')).body) as
    { 'hydra:member'?: Embedded[] };
  const peerEmbedded = JSON.parse((await expectStatus(servers.peer, '/books_with_authors?page=1', 200, 'application/json')).body) as
    Embedded[];
  const names = (rows: readonly Embedded[]): string => JSON.stringify(rows.map((r) =>
    [r.id, typeof r.author === 'object' && r.author !== null ? r.author.name : r.author]));
  const members = apiEmbedded['hydra:member'] ?? [];
  if (members.length !== 30 || names(members) !== names(peerEmbedded)
    || !members.some((m) => typeof m.author === 'object' && m.author !== null)) {
    throw new Error(`api and peer disagree on the embedded page: ${names(members)} vs ${names(peerEmbedded)}`);
  }
}

function report(cells: readonly Cell[], results: Map<string, LoadResult[]>): void {
  const of = (id: string, f: (r: LoadResult) => number): number[] => results.get(id)?.map(f) ?? [];
  const median = (id: string, f: (r: LoadResult) => number): number =>
    medianOf(of(id, f).length > 0 ? of(id, f) : [NaN]);
  console.log(`\nload average at end: ${loadavg()}`);
  console.log('req/s and p99: medians over rounds; server CPU: the server process\'s CPU time per response\n');
  printTable(['cell', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req'], cells.map((c) => [
    c.label,
    Math.round(median(c.id, (r) => r.rps)).toLocaleString('en-US'),
    String(median(c.id, (r) => r.p50)),
    String(median(c.id, (r) => r.p99)),
    median(c.id, (r) => r.cpuMicrosPerRequest).toFixed(0),
  ]));
  console.log('\ntargets (api / peer req/s; verdict on the median of per-round ratios, '
    + 'the cells of a round run back to back):');
  for (const what of Object.keys(TARGETS) as Pair[]) {
    if (!cells.some((c) => c.id === `api-${what}`)) continue;
    const paired = pairedRatios(of(`api-${what}`, (r) => r.rps), of(`peer-${what}`, (r) => r.rps));
    const cpuOf = (r: LoadResult): number => r.cpuMicrosPerRequest;
    const cpu = pairedRatios(of(`peer-${what}`, cpuOf), of(`api-${what}`, cpuOf));
    const target = TARGETS[what];
    console.log(`  [${paired.median >= target ? 'PASS' : 'MISS'}] ${what}: ${paired.median.toFixed(2)} (≥ ${target}; `
      + `rounds ${paired.min.toFixed(2)}–${paired.max.toFixed(2)}); by server CPU time ${cpu.median.toFixed(2)}; `
      + `p99 api ${median(`api-${what}`, (r) => r.p99)} ms, peer ${median(`peer-${what}`, (r) => r.p99)} ms`);
  }
}

export const apiSection: BenchSection = {
  name: 'api',
  description: 'the API layer (demo Book resource, JSON-LD; a page with its authors embedded) against hand-written '
    + 'Express + better-sqlite3 routes (a LEFT JOIN for the embedded page), 10,000 rows',
  run,
};
