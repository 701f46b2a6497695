import fc from 'fast-check';
import type { Profile } from '../../../src/profiler/Profile';

/** The fake clock's start: 2024-01-01T00:00:00Z, in ms. */
export const T0 = Date.UTC(2024, 0, 1);

/** A realistic profile; `time` is `T0 + at` seconds. */
export function makeProfile(token: string, at: number, fields: Partial<Profile> = {}): Profile {
  return {
    token,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/page/${token}`,
    time: T0 + at * 1000,
    statusCode: 200,
    collectors: { request: { headers: { accept: 'text/html' } }, time: { durationMs: 1.5 } },
    ...fields,
  };
}

/** The bytes a store counts for a profile: its JSON in UTF-8. */
export function sizeOf(profile: Profile): number {
  return Buffer.byteLength(JSON.stringify(profile), 'utf8');
}

/** A token as the profiler makes them (6 hex). */
export const tokenArb = fc.stringMatching(/^[0-9a-f]{6}$/);

/** Characters that break naive SQL, LIKE patterns, globs, JSON and URLs. */
const TRICKY = ['%', '_', '\\', "'", '"', '*', '?', '[', ']', '^', '$', '.', '/', ':', '#', '&', '=', '+', ' ', '\0', '\n', 'é', '日', '😀', 'A', 'a'];

/** Any code point (no lone surrogates), mixed with the tricky ones. */
export const textArb = fc.string({ unit: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 24 });

/** Any UTF-16 string, lone surrogates included: what JSON must carry exactly. */
export const anyUtf16Arb = fc.string({ unit: fc.oneof(fc.constantFrom(...TRICKY), fc.constantFrom('\ud800', '\udfff', '\udbff\u0041'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 24 });

/** A profile whose strings are arbitrary; optional fields are present or absent, never undefined. */
export function profileArb(time: fc.Arbitrary<number>): fc.Arbitrary<Profile> {
  return fc.record(
    {
      token: tokenArb,
      parent: tokenArb,
      ip: textArb,
      method: textArb,
      url: textArb.map((s) => `http://h/${s}`),
      time,
      statusCode: fc.integer({ min: 100, max: 599 }),
      route: textArb,
      exception: fc.array(fc.record(
        { class: anyUtf16Arb, message: anyUtf16Arb, status: fc.integer({ min: 400, max: 599 }), stack: anyUtf16Arb },
        { noNullPrototype: true },
      ), { maxLength: 2 }),
      // JSON.parse(JSON.stringify(…)) turns -0 into 0 and null-prototype objects into plain ones,
      // which JSON cannot tell apart: what a collector's data is after any store
      collectors: fc.dictionary(
        anyUtf16Arb,
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
        { maxKeys: 4, noNullPrototype: true },
      ),
    },
    { requiredKeys: ['token', 'ip', 'method', 'url', 'time', 'statusCode', 'collectors'], noNullPrototype: true },
  );
}
