/**
 * Checks the reference matcher itself against the real thing: Symfony 5.4's CompiledUrlMatcher,
 * run through `tests/routing/symfony/harness.php`. Needs PHP and Debian's
 * php-symfony-routing (tests/helpers/requirements.ts).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { ReferenceMatcher, type Outcome } from './reference-matcher';
import { buildCollection, type RouteSpec } from './outcome';
import { CONTEXT_SENSITIVE, EMPTY_MATCHING, pathFrom, requestArb, tableArb, type RequestSpec } from './table-arbitraries';
import { describeWith, programPath } from '../helpers/requirements';

const PHP = programPath('php');
const HARNESS = path.join(__dirname, 'symfony', 'harness.php');

interface Case {
  table: RouteSpec[];
  requests: Array<{ path: string; method: string; host: string; scheme: string; redirectable: boolean }>;
}

function runSymfony(cases: Case[]): Array<{ results?: Outcome[]; compileError?: string }> {
  const input = JSON.stringify(cases.map((c) => ({ routes: c.table, requests: c.requests })));
  return JSON.parse(execFileSync(PHP as string, [HARNESS], { input, maxBuffer: 256 * 1024 * 1024 }).toString('utf8'));
}

/** Symfony's MethodNotAllowedException has an empty message: compare the rest. */
function comparable(o: Outcome): Outcome {
  return o.kind === 'error' && o.error === 'MethodNotAllowedError' ? { ...o, message: '' } : o;
}

function sampleCases(seed: number, count: number, options: Parameters<typeof tableArb>[0]): Case[] {
  const arb = fc.tuple(tableArb(options), fc.array(requestArb, { minLength: 12, maxLength: 12 }), fc.boolean());
  return fc.sample(arb, { seed, numRuns: count }).map(([table, requests, notRedirectable]) => ({
    table,
    requests: requests.map((r: RequestSpec) => ({
      path: pathFrom(r.path, table),
      method: r.method,
      host: r.host,
      scheme: r.scheme,
      redirectable: !notRedirectable || r.method === 'PUT',
    })),
  }));
}

const describeIfPhp = describeWith('php');

describeIfPhp('ReferenceMatcher against Symfony 5.4 (php harness)', () => {
  const families: Array<[string, Parameters<typeof tableArb>[0]]> = [
    ['the base alphabet', { extras: true }],
    ['empty-matching requirements and double trailing slashes', { extras: true, extraSegments: EMPTY_MATCHING, endings: ['//'] }],
    ['context-sensitive requirements (anchors, lookarounds) and {!important} variables', { extras: true, extraSegments: CONTEXT_SENSITIVE }],
  ];
  const count = Number(process.env.SYMFONY_CASES ?? 250);
  const seed = Number(process.env.SYMFONY_SEED ?? 20260522);

  test.each(families)('agrees with Symfony on random tables built from %s', (_name, options) => {
    const cases = sampleCases(seed, count, options);
    const symfony = runSymfony(cases);
    const disagreements: string[] = [];
    cases.forEach((c, i) => {
      const reference = new ReferenceMatcher(buildCollection(c.table));
      const refLoose = new ReferenceMatcher(buildCollection(c.table), { redirectable: false });
      const answer = symfony[i];
      expect(answer.compileError).toBeUndefined();
      c.requests.forEach((q, j) => {
        const ref = (q.redirectable ? reference : refLoose).match(q.path, q);
        const sf = answer.results![j];
        if (!isDeepStrictEqual(comparable(ref), sf) && disagreements.length < 5) {
          disagreements.push(JSON.stringify({ table: c.table, request: q, reference: ref, symfony: sf }));
        }
      });
    });
    expect(disagreements).toEqual([]);
  });
});
