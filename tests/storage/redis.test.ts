import { closeRedis, openRedis, type RedisClient } from '../../src/storage/redis';
import { startRedis, type TestRedis } from '../helpers/redis';
import { describeWith } from '../helpers/requirements';

describeWith('redis-server')('closeRedis(client)', () => {
  let redis: TestRedis;
  beforeEach(async () => { redis = await startRedis(); });
  afterEach(async () => { await redis.stop(); });

  test('closes a client whose Redis is down at once, where node-redis\'s quit() waits for a reconnection that never comes', async () => {
    const client = await openRedis<RedisClient & { ping(): Promise<string> }>(redis.url);
    await redis.stop();
    await expect(client.ping()).rejects.toThrow(); // the client has seen the connection go
    // a promise that never settles would end this test on its timeout
    await closeRedis(client);
    expect(client.isOpen).toBe(false);
  });

  test('waits for the pending commands of a ready client before closing it', async () => {
    const client = await openRedis<RedisClient & { set(k: string, v: string): Promise<unknown> }>(redis.url);
    const pending = client.set('k', 'v');
    await closeRedis(client);
    expect(await pending).toBe('OK');
    expect(client.isOpen).toBe(false);
    const other = await openRedis(redis.url);
    expect(await other.get('k')).toBe('v');
    await closeRedis(other);
  });

  test('leaves a closed client as it is', async () => {
    const client = await openRedis(redis.url);
    await closeRedis(client);
    await expect(closeRedis(client)).resolves.toBeUndefined();
  });
});
