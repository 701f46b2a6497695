import fc from 'fast-check';
import { due } from '../../src/support/due';
import { remember } from '../../src/support/remember';

describe('remember(cache, key, value, max)', () => {
  test('never holds more than max entries, and the last value stored is always there (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.option(fc.nat(), { nil: undefined }))), fc.integer({ min: 1, max: 8 }), (writes, max) => {
      const cache = new Map<string, number | undefined>();
      for (const [k, v] of writes) {
        expect(remember(cache, k, v, max)).toBe(v);
        expect(cache.size).toBeLessThanOrEqual(max);
        expect(cache.has(k)).toBe(true);
        expect(cache.get(k)).toBe(v);
      }
    }));
  });
});

describe('due(last, now, intervalMs)', () => {
  test('due once the interval has passed, never before it, always when never done', () => {
    expect(due(Number.NEGATIVE_INFINITY, 0, 1000)).toBe(true);
    expect(due(5000, 5999, 1000)).toBe(false);
    expect(due(5000, 6000, 1000)).toBe(true);
  });

  test('due when the clock went back, so a clock set back does not postpone the work', () => {
    expect(due(5000, 4999, 1000)).toBe(true);
  });
});
