import { describeSession, looksSecret, REDACTED, redactSessionId, redactValue } from '../../src/session';

describe('looksSecret(name, value)', () => {
  it.each([
    ['password', 'x'], ['passwd', 'x'], ['apiKey', 'x'], ['api_key', 'x'], ['_csrf_token', 'x'], ['authHeader', 'x'], ['otp', 1],
    ['note', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'], ['note', 'Bearer abc'], ['note', '$2b$12$abcdefghijklmnopqrstuv'],
    ['note', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  ])('finds %s = %j secret', (name, value) => { expect(looksSecret(name, value)).toBe(true); });

  it.each([['user', 'ada'], ['cart', 'apple pear'], ['locale', 'fr'], ['count', 3], ['timeZone', 'America/Argentina/ComodRivadavia'], ['title', 'A'.repeat(40)]])(
    'leaves %s = %j alone', (name, value) => { expect(looksSecret(name, value)).toBe(false); });
});

describe('redactValue(name, value)', () => {
  it('redacts at every depth and keeps the rest', () => {
    expect(redactValue('user', { name: 'Ada', roles: ['ROLE_ADMIN'], auth: { token: 't' }, list: [{ secret: 's', ok: 1 }] }))
      .toEqual({ name: 'Ada', roles: ['ROLE_ADMIN'], auth: REDACTED, list: [{ secret: REDACTED, ok: 1 }] });
  });

  it('cuts long text, deep nesting and things JSON cannot show', () => {
    expect(redactValue('text', 'word '.repeat(100))).toHaveLength(201);
    expect(redactValue('deep', { a: { b: { c: { d: { e: 1 } } } } })).toEqual({ a: { b: { c: { d: '[object]' } } } });
    expect(redactValue('f', () => 1)).toBe('[function]');
    expect(redactValue('n', 10n)).toBe('[bigint]');
  });
});

describe('describeSession(...)', () => {
  it('never shows the session ID, only a short hash of it', () => {
    const id = 'abcdefghijklmnopqrstuvwxyz012345';
    const info = describeSession({ cookie: {}, cart: ['apple'] }, id, 'redis', false, false);
    expect(info).toEqual({ id: redactSessionId(id), store: 'redis', attributes: { cart: ['apple'] }, started: true, unavailable: false });
    expect(info.id).toMatch(/^sha256:[0-9a-f]{12}$/);
  });

  it('counts a loaded session as started even without attributes, and an empty new one as not started', () => {
    expect(describeSession({ cookie: {} }, 'id', 'sqlite', true, false).started).toBe(true);
    expect(describeSession({ cookie: {} }, 'id', 'sqlite', false, false)).toMatchObject({ started: false, id: null });
  });
});
