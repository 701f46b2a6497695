import fc from 'fast-check';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { canonicalTimeZone, isValidTimeZone, supportedTimeZones, timeZoneLayer } from '../../src/timezone';
import { debugMessage } from '../helpers/http';

const LISTED = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
const listed = fc.constantFrom(...LISTED);
/** Listed names bent: case changed, bytes stuck around them, segments cut or doubled. */
const bent = fc.oneof(
  listed.map((z) => z.toLowerCase()),
  listed.map((z) => z.toUpperCase()),
  fc.tuple(listed, fc.constantFrom(' ', '\t', '/', '/x', '\u0000', '..', '+1', '\u00e9', ',UTC', '\n')).map(([z, s]) => z + s),
  fc.tuple(fc.constantFrom(' ', '/', '../', ':', 'x'), listed).map(([p, z]) => p + z),
  listed.map((z) => z.split('/').reverse().join('/')),
);
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), bent, listed);

/** Whether Intl itself takes the name, and the zone it resolves it to. */
function intlZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

describe('canonicalTimeZone(value) and isValidTimeZone(value)', () => {
  it('never throw, whatever they are given', () => {
    fc.assert(fc.property(fc.oneof(fc.anything(), anyText), (v) => {
      expect(typeof isValidTimeZone(v)).toBe('boolean');
      const c = canonicalTimeZone(v);
      expect(c === undefined || typeof c === 'string').toBe(true);
    }), { numRuns: 3000 });
  });

  it('accept every listed name, as itself', () => {
    for (const zone of LISTED) expect(canonicalTimeZone(zone)).toBe(zone);
    expect(supportedTimeZones().size).toBe(new Set(LISTED).size);
  });

  it('accept nothing but names Intl takes, given back as sent but for case', () => {
    fc.assert(fc.property(anyText, (v) => {
      const c = canonicalTimeZone(v);
      if (c === undefined) return;
      expect(c.toLowerCase()).toBe(v.toLowerCase());
      expect(intlZone(c)).toBeDefined();
      expect(intlZone(v)).toBe(intlZone(c));
    }), { numRuns: 3000 });
  });

  it('take any case of a listed name and give it back as listed', () => {
    fc.assert(fc.property(listed, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (zone, upper) => {
      const variant = [...zone].map((ch, i) => (upper[i % 40] ? ch.toUpperCase() : ch.toLowerCase())).join('');
      expect(canonicalTimeZone(variant)).toBe(zone);
    }), { numRuns: 1000 });
  });

  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['Europe/Kyiv', 'Europe/Kyiv'],
    ['EUROPE/KYIV', 'Europe/Kyiv'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['america/port-au-prince', 'America/Port-au-Prince'],
    ['africa/dar_es_salaam', 'Africa/Dar_es_Salaam'],
    ['antarctica/dumontdurville', 'Antarctica/DumontDUrville'],
    ['etc/gmt+5', 'Etc/GMT+5'],
    ['est5edt', 'EST5EDT'],
    ['us/pacific', 'US/Pacific'],
    ['utc', 'UTC'],
  ])('spell %s as IANA does: %s (an IANA link is kept, not renamed to the zone ICU lists)', (sent, spelled) => {
    expect(canonicalTimeZone(sent)).toBe(spelled);
    expect(isValidTimeZone(sent)).toBe(true);
  });

  it.each(['+02:00', 'Mars/Olympus', 'Asia/Kolkata ', 'asia/\u212Aolkata', 'Factory', 'Europe', ''])('refuse %j', (value) => {
    expect(canonicalTimeZone(value)).toBeUndefined();
  });
});

describe('timeZoneLayer(options) with hostile Time-Zone headers', () => {
  const routes = new RouteCollection();
  routes.add('tz', new Route('/tz', { methods: ['GET'], controller: (req, res) => { res.json({ timeZone: req.timeZone }); } }));
  const app = createKernel({ routes, debug: true, layers: { 'time-zone': timeZoneLayer() } });
  const printable = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 50,
  });

  it('answers 200 with the zone sent (case-normalised), or 400 naming the value', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(printable, listed, bent.filter((s) => /^[\x21-\x7e]+$/.test(s))), async (value) => {
      const res = await request(app).get('/tz').set('Time-Zone', value).set('Accept', 'application/json');
      const zone = canonicalTimeZone(value);
      if (zone === undefined) {
        expect(res.status).toBe(400);
        expect(debugMessage(res.headers)).toBe(`Invalid time zone "${value}" in the Time-Zone header.`);
      } else {
        expect(res.status).toBe(200);
        expect(res.body.timeZone).toBe(zone);
        expect(res.body.timeZone.toLowerCase()).toBe(value.toLowerCase());
      }
    }), { numRuns: 80 });
  });
});
