import fc from 'fast-check';
import type { Profile } from '../../src/profiler/Profile';
import { constantData, profileJson } from '../../src/profiler/profileJson';

const profileArb: fc.Arbitrary<Profile> = fc.record({
  token: fc.stringMatching(/^[0-9a-f]{6}$/),
  ip: fc.string(),
  method: fc.constantFrom('GET', 'POST'),
  url: fc.string(),
  time: fc.nat(),
  statusCode: fc.integer({ min: 100, max: 599 }),
  route: fc.option(fc.string(), { nil: undefined }),
  collectors: fc.dictionary(fc.string(), fc.jsonValue()),
});

describe('profileJson(profile)', () => {
  test('writes what JSON.stringify writes (property)', () => {
    fc.assert(fc.property(profileArb, (profile) => {
      expect(JSON.parse(profileJson(profile))).toEqual(JSON.parse(JSON.stringify(profile)));
    }));
  });

  test('splices constant data from its cached JSON, and the data can no longer change', () => {
    const config = constantData({ versions: { node: 'v20' }, options: { debug: true } });
    expect(Object.isFrozen(config.versions)).toBe(true);
    expect(() => { config.versions.node = 'v99'; }).toThrow(TypeError);
    const profile: Profile = { token: 'abcdef', ip: '127.0.0.1', method: 'GET', url: 'http://x/', time: 1, statusCode: 200, collectors: { config, time: { duration: 1.5 } } };
    expect(JSON.parse(profileJson(profile))).toEqual(JSON.parse(JSON.stringify(profile)));
  });

  test('leaves out undefined collector data, as JSON.stringify does', () => {
    const profile: Profile = { token: 'abcdef', ip: '', method: 'GET', url: '/', time: 0, statusCode: 200, collectors: { gone: undefined, kept: 1 } };
    expect(profileJson(profile)).toBe(JSON.stringify(profile));
  });
});
