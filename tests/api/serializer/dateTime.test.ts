/**
 * Issue 24, point 3: datetimes as API Platform writes them (RFC 3339, `+00:00`), and read back.
 * `formatDateTime` writes the store's UTC value; `utcDateTime` reads what a client sends.
 */
import fc from 'fast-check';
import { formatDateTime, utcDateTime } from '../../../src/api/serializer/dateTime';

describe('formatDateTime(stored)', () => {
  test.each([
    ['2015-03-01T10:00:00.000Z', '2015-03-01T10:00:00+00:00'],
    ['2015-03-01T10:00:00Z', '2015-03-01T10:00:00+00:00'],
    ['2015-03-01T10:00:00.250Z', '2015-03-01T10:00:00.250+00:00'],
    ['2015-03-01', '2015-03-01'],
    ['not a date', 'not a date'],
  ])('%s is written %s', (stored, written) => {
    expect(formatDateTime(stored)).toBe(written);
  });
});

describe('utcDateTime(value)', () => {
  test.each([
    ['2015-03-01T10:00:00+00:00', '2015-03-01T10:00:00.000Z'],
    ['2015-03-01T12:00:00+02:00', '2015-03-01T10:00:00.000Z'],
    ['2015-03-01T04:30:00.5-05:30', '2015-03-01T10:00:00.500Z'],
  ])('%s is read as %s', (sent, stored) => {
    expect(utcDateTime(sent)).toBe(stored);
  });

  test.each([['2015-03-01T10:00:00Z'], ['2015-02-30T10:00:00+00:00x'], ['yesterday'], [12], [null]])(
    '%p is left for the schema to judge', (sent) => {
      expect(utcDateTime(sent)).toBe(sent);
    },
  );

  test('what formatDateTime writes reads back to the stored value, for every instant', () => {
    const instant = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(fc.property(instant, (d) => {
      const stored = d.toISOString();
      const written = formatDateTime(stored);
      expect(written).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+00:00$/);
      expect(utcDateTime(written)).toBe(stored);
    }));
  });

  test('any string: never throws, and changes only RFC 3339 datetimes with an offset', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const read = utcDateTime(s);
      if (read !== s) expect(Date.parse(String(read))).toBe(Date.parse(s));
    }));
  });
});
