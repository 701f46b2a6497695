/**
 * LoginThrottler fails closed once a counter could not be written: until a probe write succeeds,
 * `check` is a 503 before any password is checked; the probe counts against no username or IP.
 * (The same on a real SQLite file made immutable: tests/faults/sqliteUnwritable.test.ts.)
 */
import { LoginThrottler } from '../../src/security/LoginThrottler';
import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import type { ThrottleHit, ThrottleStore } from '../../src/security/ThrottleStore';

/** A memory store whose writes (hit, reset) fail while `writable` is false; reads always answer. */
class ReadOnlyWhenTold implements ThrottleStore {
  writable = true;
  readonly hits: string[] = [];
  private readonly inner = new MemoryThrottleStore();

  async hit(key: string, windowSeconds: number): Promise<ThrottleHit> {
    if (!this.writable) throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
    this.hits.push(key);
    return this.inner.hit(key, windowSeconds);
  }

  peek(key: string): Promise<ThrottleHit> { return this.inner.peek(key); }

  async reset(key: string): Promise<void> {
    if (!this.writable) throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
    return this.inner.reset(key);
  }
}

const status = (work: Promise<unknown>): Promise<number | string> =>
  work.then(() => 'ok', (e: Error & { status?: number }) => e.status ?? `${e.name}: ${e.message}`);

test('after a failure that could not be counted, every check is a 503 until the store takes a write again', async () => {
  const store = new ReadOnlyWhenTold();
  const throttler = new LoginThrottler({ store, maxAttempts: 3 });
  // writable: a failure is counted, checks pass
  await throttler.fail('alice', '10.0.0.1');
  expect(await status(throttler.check('alice', '10.0.0.1'))).toBe('ok');
  // the store stops taking writes: checks still read fine, so only the failed write tells
  store.writable = false;
  expect(await status(throttler.check('bob', '10.0.0.2'))).toBe('ok');
  const failed = await throttler.fail('bob', '10.0.0.2').catch((e: unknown) => e);
  expect(failed).toMatchObject({ status: 503, reason: 'SQLITE_IOERR_WRITE: disk I/O error' });
  // from now on no password is checked: every attempt, any user, is the same 503
  for (const user of ['bob', 'alice', 'carol']) expect(await status(throttler.check(user, '10.0.0.3'))).toBe(503);
  // writable again: the next check's probe succeeds, and the counters of before are intact
  store.writable = true;
  expect(await status(throttler.check('alice', '10.0.0.1'))).toBe('ok');
  expect((await store.peek(store.hits[0])).count).toBe(1);
  // the probe's key is no user's or IP's
  expect(store.hits.filter((k) => !/^(user-ip|ip):[0-9a-f]{64}$/.test(k))).toEqual(['probe:writable']);
  // and counting goes on from them: alice's third failure reaches the limit of 3
  await throttler.fail('alice', '10.0.0.1');
  await throttler.fail('alice', '10.0.0.1');
  expect(await status(throttler.check('alice', '10.0.0.1'))).toMatch(/^AuthenticationError: Too many failed login attempts/);
});
