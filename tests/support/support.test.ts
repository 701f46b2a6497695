import { due } from '../../src/support/due';

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
