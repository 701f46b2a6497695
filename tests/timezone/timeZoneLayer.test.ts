import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { localeLayer } from '../../src/locale';
import { sessionLayer } from '../../src/session';
import { formatInTimeZone, timeZoneLayer, TimeZoneOptions } from '../../src/timezone';
import { debugMessage } from '../helpers/http';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const NOON_UTC = Date.UTC(2024, 0, 15, 12, 30, 0);
/** The signed-in user as the fake firewall below leaves it (the real one sets `req.user`). */
type WithUser = Request & { testUser?: { timeZone?: string } };

function routes(): RouteCollection {
  const r = new RouteCollection();
  r.add('tz', new Route('/tz', {
    methods: ['GET'],
    controller: (req, res) => {
      res.json({
        timeZone: req.timeZone,
        info: req.timeZoneInfo,
        time: formatInTimeZone(NOON_UTC, req, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
        month: formatInTimeZone(NOON_UTC, req, { month: 'long' }),
      });
    },
  }));
  r.add('remember', new Route('/remember', {
    methods: ['POST'],
    controller: (req, res) => { req.session.timeZone = req.query.zone as string; res.json({ saved: true }); },
  }));
  return r;
}

/** Stands in for the firewall: the user's time zone comes from a test header. */
function fakeFirewall(req: Request, _res: Response, next: NextFunction): void {
  const zone = req.headers['x-test-user-tz'];
  if (typeof zone === 'string') (req as WithUser).testUser = { timeZone: zone };
  next();
}

function kernel(options: TimeZoneOptions = { default: 'UTC', userPreference: (req) => (req as WithUser).testUser?.timeZone }) {
  return createKernel({
    routes: routes(),
    debug: true,
    layers: {
      session: sessionLayer({ secret: SECRET, store: 'memory', environment: 'test' }),
      firewall: fakeFirewall,
      locale: localeLayer({ defaultLocale: 'en', enabledLocales: ['en', 'fr'] }),
      'time-zone': timeZoneLayer(options),
    },
  });
}

async function sessionWithZone(app: ReturnType<typeof kernel>, zone: string): Promise<string> {
  const res = await request(app).post(`/remember?zone=${encodeURIComponent(zone)}`).expect(200);
  return String(res.headers['set-cookie'][0]).split(';')[0];
}

describe('timeZoneLayer(options) precedence: user > session > header > cookie > default', () => {
  it('takes the user\'s preference first', async () => {
    const app = kernel();
    const cookie = await sessionWithZone(app, 'Asia/Tokyo');
    const res = await request(app).get('/tz').set('X-Test-User-Tz', 'America/New_York')
      .set('Cookie', `${cookie}; tz=Europe/Berlin`).set('Time-Zone', 'Europe/Paris');
    expect(res.body.info).toEqual({ timeZone: 'America/New_York', source: 'user' });
    expect(res.body.time).toBe('07:30');
  });

  it('then the session', async () => {
    const app = kernel();
    const cookie = await sessionWithZone(app, 'Asia/Tokyo');
    const res = await request(app).get('/tz').set('Cookie', `${cookie}; tz=Europe/Berlin`).set('Time-Zone', 'Europe/Paris');
    expect(res.body.info).toEqual({ timeZone: 'Asia/Tokyo', source: 'session' });
    expect(res.body.time).toBe('21:30');
  });

  it('then the Time-Zone header', async () => {
    const res = await request(kernel()).get('/tz').set('Cookie', 'tz=Europe/Berlin').set('Time-Zone', 'Europe/Paris');
    expect(res.body.info).toEqual({ timeZone: 'Europe/Paris', source: 'header' });
    expect(res.body.time).toBe('13:30');
  });

  it('then the tz cookie (percent-encoded or not)', async () => {
    for (const value of ['America/Sao_Paulo', 'America%2FSao_Paulo', '"America/Sao_Paulo"']) {
      const res = await request(kernel()).get('/tz').set('Cookie', `other=1; tz=${value}`);
      expect(res.body.info).toEqual({ timeZone: 'America/Sao_Paulo', source: 'cookie' });
      expect(res.body.time).toBe('09:30');
    }
  });

  it('then the default', async () => {
    const res = await request(kernel({ default: 'Europe/Paris' })).get('/tz');
    expect(res.body.info).toEqual({ timeZone: 'Europe/Paris', source: 'default' });
  });

  it('skips an invalid user preference, session value and cookie', async () => {
    const app = kernel();
    const cookie = await sessionWithZone(app, 'Mars/Olympus_Mons');
    const res = await request(app).get('/tz').set('X-Test-User-Tz', 'Europe/Pariss').set('Cookie', `${cookie}; tz=Not/AZone`);
    expect(res.status).toBe(200);
    expect(res.body.info).toEqual({ timeZone: 'UTC', source: 'default' });
  });

  it('ignores a cookie that cannot be percent-decoded', async () => {
    const res = await request(kernel()).get('/tz').set('Cookie', 'tz=%E0%A4%A');
    expect(res.body.info).toEqual({ timeZone: 'UTC', source: 'default' });
  });
});

describe('timeZoneLayer(options) Time-Zone header validation', () => {
  it.each(['Europe/Pariss', 'europe paris', 'GMT+2', '+02:00', 'Europe/Paris, UTC', '../../etc/passwd'])('answers 400 for %j', async (value) => {
    const res = await request(kernel()).get('/tz').set('Time-Zone', value).set('Accept', 'application/json');
    expect(res.status).toBe(400);
    expect(debugMessage(res.headers)).toBe(`Invalid time zone "${value}" in the Time-Zone header.`);
  });

  it('answers 400 even when a higher source decides', async () => {
    const res = await request(kernel()).get('/tz').set('X-Test-User-Tz', 'Asia/Tokyo').set('Time-Zone', 'Nowhere');
    expect(res.status).toBe(400);
  });

  it('treats an empty header as absent', async () => {
    const res = await request(kernel()).get('/tz').set('Time-Zone', '');
    expect(res.status).toBe(200);
    expect(res.body.info.source).toBe('default');
  });

  it('accepts UTC and names Intl lists', async () => {
    for (const zone of ['UTC', 'America/New_York', Intl.supportedValuesOf('timeZone')[0]]) {
      const res = await request(kernel()).get('/tz').set('Time-Zone', zone);
      expect(res.body.info).toEqual({ timeZone: zone, source: 'header' });
    }
  });

  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata', '18:00'],
    ['asia/kolkata', 'Asia/Kolkata', '18:00'],
    ['Europe/Kyiv', 'Europe/Kyiv', '14:30'],
    ['europe/KYIV', 'Europe/Kyiv', '14:30'],
  ])('takes Time-Zone: %s as %s (the IANA name sent, case-normalised, not ICU\'s older name)', async (sent, zone, time) => {
    const res = await request(kernel()).get('/tz').set('Time-Zone', sent);
    expect(res.body.info).toEqual({ timeZone: zone, source: 'header' });
    expect(res.body.time).toBe(time);
  });
});

describe('formatInTimeZone(date, req, options)', () => {
  it('formats in the request\'s zone and locale', async () => {
    const res = await request(kernel()).get('/tz').set('Time-Zone', 'Asia/Tokyo').set('Accept-Language', 'fr');
    expect(res.body.time).toBe('21:30');
    expect(res.body.month).toBe('janvier');
  });

  it('defaults to a medium date and long time, and to UTC and English without the layers', () => {
    const req = {} as Request;
    expect(formatInTimeZone(NOON_UTC, req)).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }).format(NOON_UTC));
    expect(formatInTimeZone(new Date(NOON_UTC), { timeZone: 'Asia/Tokyo', locale: 'fr_FR' } as Request, { day: 'numeric', month: 'long', hour: 'numeric', hourCycle: 'h23' })).toBe('15 janvier à 21 h');
  });

  it('throws a RangeError for an invalid date', () => {
    expect(() => formatInTimeZone(new Date(NaN), {} as Request)).toThrow(RangeError);
  });
});

describe('timeZoneLayer(options) validation', () => {
  it.each<[string, TimeZoneOptions, string]>([
    ['an unknown default', { default: 'Mars/Base' }, 'Invalid option "timeZone.default": expected an IANA time zone such as "Europe/Paris" or "UTC" (got "Mars/Base").'],
    ['a userPreference that is not a function', { userPreference: 'user.tz' as never },
      'Invalid option "timeZone.userPreference": expected a function (req) => string | undefined (got "user.tz").'],
    ['a bad cookie name', { cookieName: 'time zone' }, 'Invalid option "timeZone.cookieName": expected a cookie name (an RFC 6265 token) (got "time zone").'],
    ['a typo', { defualt: 'UTC' } as never, 'Invalid option "timeZone.defualt": unknown option; did you mean "default"?'],
    ['a key far from any option', { zone: 'UTC' } as never,
      'Invalid option "timeZone.zone": unknown option; expected one of default, userPreference, cookieName.'],
    ['a default that is not a string', { default: 42 as never },
      'Invalid option "timeZone.default": expected an IANA time zone such as "Europe/Paris" or "UTC" (got 42).'],
  ])('refuses %s at construction', (_what, options, message) => {
    expect(() => timeZoneLayer(options)).toThrow(message);
  });
});
