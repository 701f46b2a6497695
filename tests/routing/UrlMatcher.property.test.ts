/**
 * UrlMatcher (segment-trie index + Symfony control flow) against the reference matcher (plain
 * linear scan, checked against Symfony itself in ReferenceMatcher.symfony.test.ts) on random
 * routing tables and requests.
 */
import fc from 'fast-check';
import { UrlMatcher } from '../../src/routing/matcher/UrlMatcher';
import { isRoutingError, MethodNotAllowedError, ResourceNotFoundError } from '../../src/routing/errors';
import { ReferenceMatcher } from './reference-matcher';
import { buildCollection, outcomeOf, type RouteSpec } from './outcome';
import { CONTEXT_SENSITIVE, EMPTY_MATCHING, pathFrom, requestArb, tableArb, type RequestSpec, type TableOptions } from './table-arbitraries';
import { demoCollection } from './demo-table';

function agree(table: RouteSpec[], requests: RequestSpec[], redirectable: boolean, combinedRegexQuirks: boolean): void {
  const collection = buildCollection(table);
  const matcher = new UrlMatcher(collection, { redirectable });
  const reference = new ReferenceMatcher(collection, { redirectable, combinedRegexQuirks });
  for (const r of requests) {
    const path = pathFrom(r.path, table);
    const context = { method: r.method, host: r.host, scheme: r.scheme };
    const request = `${r.method} ${r.scheme}://${r.host}${path}`;
    expect({ request, outcome: outcomeOf(matcher, path, context) })
      .toEqual({ request, outcome: reference.match(path, context) });
  }
}

function agreeOn(
  options: TableOptions,
  combinedRegexQuirks: boolean,
  numRuns = Number(process.env.ROUTING_PROPERTY_RUNS ?? 300),
): void {
  fc.assert(
    fc.property(
      tableArb(options),
      fc.array(requestArb, { minLength: 10, maxLength: 10 }),
      fc.boolean(),
      (table, requests, notRedirectable) => agree(table, requests, !notRedirectable, combinedRegexQuirks),
    ),
    { numRuns },
  );
}

const BASE: [string, TableOptions] = ['static words, {var}, {var<\\d+>}, {var<[a-z]+>}, {var<.+>}, {x}.{y}, {page?1}, trailing slashes and methods', {}];
const EXTRAS: [string, TableOptions] = ['the same plus hosts, schemes, conditions and priorities', { extras: true, conditions: true }];
const EMPTY: [string, TableOptions] = ['requirements that match the empty string ({var<\\d*>}, {var<[^/]*>}) and paths ending in //', { extras: true, extraSegments: EMPTY_MATCHING, endings: ['//'] }];
const CONTEXT: [string, TableOptions] = ['context-sensitive requirements (x(?!$), (?<!^)x, lookbehinds) and {!important} variables', { extras: true, extraSegments: CONTEXT_SENSITIVE }];

describe('UrlMatcher.match() agrees exactly with the reference matcher (Symfony 5.4, combined-regex effects included)', () => {
  // The matcher reproduces the two effects of Symfony's combined regex (see ReferenceMatcher), so
  // the reference keeps them too, on every family of tables (the PHP harness checks the reference
  // on the same families).
  test.each([BASE, EXTRAS, EMPTY, CONTEXT])('on random tables built from %s', (_name, options) => {
    agreeOn(options, true);
  });
});

describe('UrlMatcher.match() on the oracle demo table', () => {
  test('agrees with the reference matcher on random paths made of the table\'s words', () => {
    const demo = demoCollection();
    const matcher = new UrlMatcher(demo);
    const reference = new ReferenceMatcher(demo);
    const word = fc.constantFrom('', 'api', 'books', '5', '%35', 'abc', '-1', 'hello', 'plain', 'admin', 'boom', 'en', 'fr', 'de', 'xx', 'about',
      '_profiler', '_wdt', 'search', 'search_bar', 'results', 'router', 'exception', 'exception.css', 'open', 'phpinfo', 'a1b2c3', '%2F', 'api%2Fbooks');
    const path = fc.tuple(fc.array(word, { maxLength: 5 }), fc.constantFrom('', '', '/', '//')).map(([w, end]) => '/' + w.join('/') + end);
    fc.assert(
      fc.property(path, fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), (p, method) => {
        const context = { method, host: 'localhost', scheme: 'http' };
        expect(outcomeOf(matcher, p, context)).toEqual(reference.match(p, context));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('UrlMatcher.match() only ever throws routing errors', () => {
  const tables = [
    demoCollection(),
    ...fc.sample(tableArb({ extras: true, conditions: true, extraSegments: EMPTY_MATCHING, endings: ['//'] }), { seed: 42, numRuns: 20 }).map(buildCollection),
  ];
  const matchers = tables.flatMap((t) => [new UrlMatcher(t), new UrlMatcher(t, { redirectable: false })]);
  const percent = fc
    .array(
      fc.oneof(
        fc.constantFrom('/', '%', '%2F', '%2f', '%E9', '%C3%A9', '%C3', '%FF', '%00', '%%', '%2', '%G1', '%EF%BB%BF', '%F0%9F%98%80', '+', '.', '..'),
        fc.string({ maxLength: 3 }),
        fc.constantFrom('api', 'books', '5', 'hello', 'plain', '_profiler', 'en'),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''));
  const anyPath = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.webPath(), percent, percent.map((p) => '/' + p));
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'get', '');

  test('for arbitrary strings, web paths and % sequences (invalid UTF-8 included) as path', () => {
    fc.assert(
      fc.property(fc.nat({ max: matchers.length - 1 }), anyPath, method, fc.constantFrom('http', 'https'), (i, path, m, scheme) => {
        try {
          const r = matchers[i].match(path, { method: m, host: 'localhost', scheme });
          expect(typeof r.route).toBe('string');
        } catch (e) {
          if (!isRoutingError(e) || !(e instanceof ResourceNotFoundError || e instanceof MethodNotAllowedError)) {
            throw e;
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
