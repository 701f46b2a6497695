import { MemoryProfilerStorage } from '../../../src/profiler/storage/MemoryProfilerStorage';
import { describeProfilerStorage } from './conformance';
import { makeProfile } from './profiles';

describeProfilerStorage('MemoryProfilerStorage', (options) => new MemoryProfilerStorage(options));

describe('new MemoryProfilerStorage(maxProfiles)', () => {
  it('takes a number as the profile cap alone', async () => {
    const store = new MemoryProfilerStorage(2);
    expect(store.retention).toMatchObject({ maxProfiles: 2, maxBytes: 104857600, maxAgeSeconds: 172800 });
  });

  it('rejects a bad number, naming the option', () => {
    expect(() => new MemoryProfilerStorage(0)).toThrow('Invalid option "profiler.storage.maxProfiles": expected a whole number of profiles from 1 to 10000000 (got 0).');
  });

  it('keeps nothing between instances', async () => {
    const a = new MemoryProfilerStorage();
    await a.write({ ...makeProfile('aaaaaa', 0), time: Date.now() });
    expect(await new MemoryProfilerStorage().has('aaaaaa')).toBe(false);
    expect(await a.has('aaaaaa')).toBe(true);
  });
});
