import fc from 'fast-check';
import type { Profile, ProfileSummary } from '../../../src/profiler/Profile';
import { ClosableProfilerStorage, compareAge, matchesCriteria, summaryOf } from '../../../src/profiler/storage/ProfilerStorage';
import type { ProfilerStorageOptions } from '../../../src/profiler/storage/retention';
import { anyUtf16Arb, makeProfile, profileArb, sizeOf, T0, textArb } from './profiles';

/** Opens a fresh, empty store with these options (the suite closes it after each test). */
export type StorageFactory = (
  options: ProfilerStorageOptions,
) => ClosableProfilerStorage | Promise<ClosableProfilerStorage>;

const tokensOf = (summaries: ProfileSummary[]): string[] => summaries.map((s) => s.token);

/** A lone UTF-16 surrogate: SQLite's UTF-8 columns hold it as U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The one conformance suite of {@link ProfilerStorage}: every store runs it. The clock is fake
 * (`now` option), so the age cap is tested without sleeping.
 */
export function describeProfilerStorage(name: string, factory: StorageFactory): void {
  describe(`${name} (ProfilerStorage conformance)`, () => {
    let clock = T0;
    let opened: ClosableProfilerStorage[] = [];

    async function open(options: ProfilerStorageOptions = {}): Promise<ClosableProfilerStorage> {
      const store = await factory({ now: () => clock, ...options });
      opened.push(store);
      return store;
    }

    async function writeAll(store: ClosableProfilerStorage, profiles: Profile[]): Promise<void> {
      for (const p of profiles) await store.write(p);
    }

    beforeEach(() => { clock = T0 + 3600_000; });
    afterEach(async () => {
      await Promise.all(opened.map((s) => s.close()));
      opened = [];
    });

    describe('construction', () => {
      it.each([
        ['maxProfiles', 0, /^Invalid option "profiler\.storage\.maxProfiles": expected a whole number of profiles from 1 to 10000000 \(got 0\)\.$/],
        ['maxBytes', '100MB', /^Invalid option "profiler\.storage\.maxBytes": expected a whole number of bytes .*\(got "100MB"\)\.$/],
        ['maxAgeSeconds', 1.5, /^Invalid option "profiler\.storage\.maxAgeSeconds": expected a whole number of seconds .*\(got 1\.5\)\.$/],
        ['now', 42, /^Invalid option "profiler\.storage\.now": expected a function/],
        ['maxProfile', 10, /^Invalid option "profiler\.storage\.maxProfile": unknown option; did you mean "maxProfiles"\?$/],
        ['path', 10, /^Invalid option "profiler\.storage\.path": unknown option; expected one of maxProfiles, maxBytes, maxAgeSeconds, now/],
      ])('rejects %s = %p, naming the option', async (option, value, message) => {
        await expect(async () => factory({ [option]: value })).rejects.toThrow(message);
      });
    });

    describe('write(profile) / read(token)', () => {
      it('reads back what was written, exception and collectors included', async () => {
        const store = await open();
        const profile = makeProfile('a1b2c3', 0, {
          parent: 'ffffff', route: 'book_show', statusCode: 500,
          exception: [{ class: 'Error', message: 'Kaboom', status: 500, file: '/app/x.js', line: 3 }],
          collectors: { request: { query: { q: ['1', '2'] } }, memory: { peak: 1234 }, empty: {} },
        });
        await store.write(profile);
        expect(await store.read('a1b2c3')).toStrictEqual(profile);
      });

      it('reads null for an unknown token', async () => {
        const store = await open();
        await store.write(makeProfile('aaaaaa', 0));
        expect(await store.read('bbbbbb')).toBeNull();
      });

      it('replaces a profile written again under the same token', async () => {
        const store = await open();
        await store.write(makeProfile('aaaaaa', 0, { statusCode: 200 }));
        await store.write(makeProfile('aaaaaa', 1, { statusCode: 404 }));
        expect((await store.read('aaaaaa'))?.statusCode).toBe(404);
        expect(await store.find({})).toStrictEqual([summaryOf(makeProfile('aaaaaa', 1, { statusCode: 404 }))]);
      });

      it('returns a copy: changing what was written or read does not change the store', async () => {
        const store = await open();
        const profile = makeProfile('aaaaaa', 0);
        await store.write(profile);
        profile.url = 'changed';
        (await store.read('aaaaaa'))!.method = 'POST';
        expect(await store.read('aaaaaa')).toStrictEqual(makeProfile('aaaaaa', 0));
      });

      it('rejects a profile JSON cannot carry, storing nothing', async () => {
        const store = await open();
        await expect(store.write(makeProfile('aaaaaa', 0, { collectors: { n: BigInt(1) } }))).rejects.toThrow(TypeError);
        expect(await store.has('aaaaaa')).toBe(false);
      });
    });

    describe('writesVisibleAtOnce', () => {
      it('when set, read, has and find see a profile as soon as write returns; else once write settles', async () => {
        const store = await open();
        const written = store.write(makeProfile('aaaaaa', 0));
        if (store.writesVisibleAtOnce !== true) await written;
        expect(await store.has('aaaaaa')).toBe(true);
        expect(tokensOf(await store.find({}))).toEqual(['aaaaaa']);
        expect((await store.read('aaaaaa'))?.token).toBe('aaaaaa');
        await written;
      });
    });

    describe('has(token)', () => {
      it('is true for a written token and false for others', async () => {
        const store = await open();
        await store.write(makeProfile('aaaaaa', 0));
        expect(await store.has('aaaaaa')).toBe(true);
        expect(await store.has('bbbbbb')).toBe(false);
      });
    });

    describe('find(criteria)', () => {
      const fleet = [
        makeProfile('000001', 1, { ip: '10.0.0.1', method: 'GET', url: 'http://localhost/api/books', statusCode: 200, route: 'book_list' }),
        makeProfile('000002', 2, { ip: '10.0.0.2', method: 'POST', url: 'http://localhost/api/books', statusCode: 201, route: 'book_create' }),
        makeProfile('000003', 3, { ip: '192.168.1.10', method: 'GET', url: 'http://localhost/nope?q=100%25', statusCode: 404 }),
        makeProfile('000004', 4, { ip: '10.0.0.1', method: 'DELETE', url: 'http://localhost/api/books/5', statusCode: 204, route: 'book_delete', parent: '000003' }),
        makeProfile('000005', 5, { ip: '::1', method: 'GET', url: 'http://localhost/boom', statusCode: 500, route: 'boom' }),
      ];
      let store: ClosableProfilerStorage;
      beforeEach(async () => {
        store = await open();
        await writeAll(store, [fleet[2], fleet[0], fleet[4], fleet[1], fleet[3]]); // not in time order
      });

      it('lists summaries newest first, whatever the write order', async () => {
        expect(await store.find({})).toStrictEqual([...fleet].reverse().map(summaryOf));
      });

      it('keeps parent and route in a summary only when the profile has them', async () => {
        const [boom, del] = await store.find({ limit: 2 });
        expect(Object.keys(boom).sort()).toEqual(['ip', 'method', 'route', 'statusCode', 'time', 'token', 'url']);
        expect(del.parent).toBe('000003');
        expect(Object.keys((await store.find({ statusCode: 404 }))[0])).not.toContain('route');
      });

      it('orders profiles of the same time by token, descending', async () => {
        await writeAll(store, [makeProfile('00000b', 9), makeProfile('00000c', 9), makeProfile('00000a', 9)]);
        expect(tokensOf(await store.find({ limit: 3 }))).toEqual(['00000c', '00000b', '00000a']);
      });

      it.each<[string, Parameters<ClosableProfilerStorage['find']>[0], string[]]>([
        ['ip, as a substring', { ip: '10.0.0.1' }, ['000004', '000001']],
        ['ip, partial', { ip: '192.168' }, ['000003']],
        ['method, exactly, in any case', { method: 'get' }, ['000005', '000003', '000001']],
        ['method, never as a substring', { method: 'GE' }, []],
        ['url, as a case-sensitive substring', { url: '/api/books' }, ['000004', '000002', '000001']],
        ['url, upper case matching nothing', { url: '/API/' }, []],
        ['url with % taken literally', { url: '100%' }, ['000003']],
        ['url with a lone % matching only a literal %', { url: '%' }, ['000003']],
        ['url with _ taken literally', { url: 'api_books' }, []],
        ['statusCode', { statusCode: 404 }, ['000003']],
        ['start, inclusive', { start: T0 + 4000 }, ['000005', '000004']],
        ['end, inclusive', { end: T0 + 2000 }, ['000002', '000001']],
        ['start and end', { start: T0 + 2000, end: T0 + 3000 }, ['000003', '000002']],
        ['all filters at once', { ip: '10.0.0', method: 'GET', url: 'books', statusCode: 200, start: T0, end: T0 + 9000 }, ['000001']],
        ['empty strings, as no filter', { ip: '', method: '', url: '' }, ['000005', '000004', '000003', '000002', '000001']],
      ])('filters by %s', async (_what, criteria, expected) => {
        expect(tokensOf(await store.find(criteria))).toEqual(expected);
      });

      it('returns at most `limit` results, 10 by default', async () => {
        await writeAll(store, Array.from({ length: 10 }, (_, i) => makeProfile(`10000${i}`, 100 + i)));
        expect(await store.find({})).toHaveLength(10);
        expect(tokensOf(await store.find({ limit: 3 }))).toEqual(['100009', '100008', '100007']);
        expect(await store.find({ limit: 100 })).toHaveLength(15);
        expect(await store.find({ limit: Infinity })).toHaveLength(15);
        expect(await store.find({ limit: 0 })).toEqual([]);
        expect(await store.find({ limit: -1 })).toEqual([]);
        expect(tokensOf(await store.find({ limit: 2, method: 'GET', end: T0 + 9000 }))).toEqual(['000005', '000003']);
      });
    });

    describe('purge()', () => {
      it('deletes every profile, and the store goes on working', async () => {
        const store = await open();
        await writeAll(store, [makeProfile('aaaaaa', 0), makeProfile('bbbbbb', 1)]);
        await store.purge();
        expect(await store.find({})).toEqual([]);
        expect(await store.read('aaaaaa')).toBeNull();
        expect(await store.has('bbbbbb')).toBe(false);
        await store.write(makeProfile('cccccc', 2));
        expect(tokensOf(await store.find({}))).toEqual(['cccccc']);
      });
    });

    describe('retention caps', () => {
      it('maxProfiles: keeps the newest, by request time, whatever the write order', async () => {
        const store = await open({ maxProfiles: 3 });
        await writeAll(store, [makeProfile('000002', 2), makeProfile('000005', 5), makeProfile('000001', 1), makeProfile('000004', 4), makeProfile('000003', 3)]);
        expect(tokensOf(await store.find({}))).toEqual(['000005', '000004', '000003']);
        expect(await store.read('000002')).toBeNull();
        expect(await store.has('000001')).toBe(false);
      });

      it('maxProfiles: a late profile older than all the kept ones is the one dropped', async () => {
        const store = await open({ maxProfiles: 2 });
        await writeAll(store, [makeProfile('000005', 5), makeProfile('000006', 6), makeProfile('000001', 1)]);
        expect(tokensOf(await store.find({}))).toEqual(['000006', '000005']);
      });

      it('maxBytes: drops the oldest until the JSON sizes add up to the cap at most', async () => {
        const profiles = [1, 2, 3, 4].map((i) => makeProfile(`00000${i}`, i, { collectors: { pad: 'x'.repeat(100 * i) } }));
        const [s1, s2, s3, s4] = profiles.map(sizeOf);
        const store = await open({ maxBytes: s2 + s3 + s4 });
        await writeAll(store, profiles.slice(0, 3));
        expect(tokensOf(await store.find({}))).toEqual(['000003', '000002', '000001']);
        await store.write(profiles[3]); // s1 + … + s4 is over: 000001 goes
        expect(tokensOf(await store.find({}))).toEqual(['000004', '000003', '000002']);
        expect(s1).toBeGreaterThan(0);
      });

      it('maxBytes: counts a replaced profile once', async () => {
        const profile = makeProfile('000001', 1);
        const store = await open({ maxBytes: 2 * sizeOf(profile) + 10 });
        for (let i = 0; i < 5; i++) await store.write(profile);
        await store.write(makeProfile('000002', 2));
        expect(tokensOf(await store.find({}))).toEqual(['000002', '000001']);
      });

      it('maxBytes: refuses a profile larger than the cap alone, keeping the others', async () => {
        const small = makeProfile('000001', 1);
        const store = await open({ maxBytes: sizeOf(small) + 50 });
        await store.write(small);
        const big = makeProfile('000002', 2, { collectors: { pad: 'x'.repeat(200) } });
        await expect(store.write(big)).rejects.toThrow(new RangeError(
          `Profile "000002" is ${sizeOf(big)} bytes, more than "profiler.storage.maxBytes" (${sizeOf(small) + 50}); it is not stored.`));
        expect(tokensOf(await store.find({}))).toEqual(['000001']);
      });

      it('maxAgeSeconds: hides a profile once it is older, and deletes it on the next write', async () => {
        const store = await open({ maxAgeSeconds: 60 });
        clock = T0;
        await store.write(makeProfile('000000', 0));
        clock = T0 + 60_000; // exactly 60 s old: kept
        expect(await store.has('000000')).toBe(true);
        clock = T0 + 60_001;
        expect(await store.has('000000')).toBe(false);
        expect(await store.read('000000')).toBeNull();
        expect(await store.find({})).toEqual([]);
        await store.write(makeProfile('000060', 60));
        clock = T0; // winding the clock back does not bring the deleted profile back
        expect(tokensOf(await store.find({}))).toEqual(['000060']);
      });

      it('maxAgeSeconds: does not keep a profile already too old when written', async () => {
        const store = await open({ maxAgeSeconds: 60 });
        clock = T0 + 120_000;
        await store.write(makeProfile('000000', 0));
        await store.write(makeProfile('000100', 100));
        expect(tokensOf(await store.find({}))).toEqual(['000100']);
        clock = T0;
        expect(await store.read('000000')).toBeNull();
      });

      it('applies the defaults: 1000 profiles, 100 MiB, 2 days', async () => {
        const store = await open();
        clock = T0 + 2 * 86400_000;
        await store.write(makeProfile('000000', 0));
        expect(await store.has('000000')).toBe(true);
        clock += 1;
        expect(await store.has('000000')).toBe(false);
      });
    });

    describe('concurrent writes', () => {
      it('keep every cap and lose no profile that fits', async () => {
        const store = await open({ maxProfiles: 20 });
        const profiles = Array.from({ length: 50 }, (_, i) => makeProfile(i.toString(16).padStart(6, '0'), i));
        await Promise.all(profiles.map((p) => store.write(p)));
        const newest = profiles.slice(30).reverse();
        expect(tokensOf(await store.find({ limit: 100 }))).toEqual(tokensOf(newest.map(summaryOf)));
        const read = await Promise.all(newest.map((p) => store.read(p.token)));
        expect(read).toStrictEqual(newest);
      });

      it('keep the byte cap', async () => {
        const profiles = Array.from({ length: 40 }, (_, i) => makeProfile(i.toString(16).padStart(6, '0'), i, { collectors: { pad: 'y'.repeat(i) } }));
        const cap = profiles.slice(30).reduce((n, p) => n + sizeOf(p), 0);
        const store = await open({ maxBytes: cap });
        await Promise.all(profiles.map((p) => store.write(p)));
        expect(tokensOf(await store.find({ limit: 100 }))).toEqual(profiles.slice(30).reverse().map((p) => p.token));
      });
    });

    describe('properties', () => {
      const time = fc.integer({ min: T0, max: T0 + 3600_000 });

      it('any profile round-trips exactly, and find by a piece of its url lists it', async () => {
        const store = await open();
        await fc.assert(fc.asyncProperty(profileArb(time), fc.nat(), fc.nat(), async (profile, a, b) => {
          await store.purge();
          await store.write(profile);
          expect(await store.read(profile.token)).toStrictEqual(profile);
          const chars = Array.from(profile.url); // whole code points: a piece never splits a pair
          const piece = chars.slice(Math.min(a, b) % chars.length, Math.max(a, b) % chars.length + 1).join('');
          expect(await store.find({ url: piece })).toStrictEqual([summaryOf(profile)]);
        }), { numRuns: 60 });
      });

      it('find({ url }) never throws, and lists exactly the urls containing it', async () => {
        const store = await open();
        const urls = ['http://h/100%', 'http://h/a_b', 'http://h/a\\b', "http://h/it's", 'http://h/"q"', 'http://h/*?[x]', 'http://h/%25',
          'http://h/ABC', 'http://h/abc', 'http://h/日本', 'http://h/😀', 'http://h/nul\0byte', 'http://h/x%_\\y'];
        const profiles = urls.map((url, i) => makeProfile(`00000${i.toString(16)}`, i, { url }));
        await writeAll(store, profiles);
        const model = (url: string): string[] => [...profiles]
          .sort((x, y) => compareAge(y, x))
          .filter((p) => matchesCriteria(p, { url }))
          .map((p) => p.token);
        const urlArb = fc.oneof(textArb, anyUtf16Arb, fc.constantFrom(...urls.map((u) => u.slice(9))));
        await fc.assert(fc.asyncProperty(urlArb, async (url) => {
          const found = tokensOf(await store.find({ url, limit: 100 }));
          if (!LONE_SURROGATE.test(url)) expect(found).toEqual(model(url));
        }), { numRuns: 150 });
      });
    });
  });
}
