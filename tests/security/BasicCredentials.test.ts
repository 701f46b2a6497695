import fc from 'fast-check';
import { parseBasicCredentials } from '../../src/security/BasicCredentials';

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('parseBasicCredentials(header)', () => {
  test.each([
    ['Basic YWRtaW46YWRtaW4=', { username: 'admin', password: 'admin' }],
    ['basic YWRtaW46YWRtaW4=', { username: 'admin', password: 'admin' }],
    ['BASIC   YWRtaW46YWRtaW4=  ', { username: 'admin', password: 'admin' }],
    [`Basic ${encode('user:pa:ss')}`, { username: 'user', password: 'pa:ss' }],
    [`Basic ${encode(':')}`, { username: '', password: '' }],
    [`Basic ${encode('jürgen:pässwörd')}`, { username: 'jürgen', password: 'pässwörd' }],
    ['Basic YWRtaW46YWRtaW4', { username: 'admin', password: 'admin' }],
  ])('%s → %j', (header, expected) => {
    expect(parseBasicCredentials(header)).toEqual(expected);
  });

  test.each([
    [undefined], [''], ['Basic'], ['Basic '], ['Bearer YWRtaW46YWRtaW4='], ['Basic !!!!'], [`Basic ${encode('no colon')}`],
    ['Basic YWRtaW46YWRtaW4=x'], ['Basic YWRtaW46YWRtaW4==='], ['Basic Y'], [`Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`],
    ['BasicYWRtaW46YWRtaW4='], [['Basic YWRtaW46YWRtaW4=']],
  ])('%j → null', (header) => {
    expect(parseBasicCredentials(header)).toBeNull();
  });

  test('property: never throws on any header string; returns null or a pair of strings', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string().map((s) => `Basic ${s}`), fc.base64String().map((s) => `Basic ${s}`)), (header) => {
      const parsed = parseBasicCredentials(header);
      expect(parsed === null || (typeof parsed.username === 'string' && typeof parsed.password === 'string')).toBe(true);
    }), { numRuns: 2000 });
  });

  test('property: any user-id without a colon and any password round-trip', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }).filter((u) => !u.includes(':')), fc.string({ unit: 'binary' }), (username, password) => {
      expect(parseBasicCredentials(`Basic ${encode(`${username}:${password}`)}`)).toEqual({ username, password });
    }), { numRuns: 1000 });
  });
});
