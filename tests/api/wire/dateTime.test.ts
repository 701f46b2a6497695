/**
 * Issue 24, point 3: a datetime property on the wire as API Platform writes it
 * (`2015-03-01T10:00:00+00:00`) in JSON-LD, JSON and HAL, items and collections; what the API
 * wrote can be sent back (PUT after GET, a merge-patch that leaves it alone). A kernel of its
 * own with one resource (no firewall), over real HTTP.
 */
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, DateFilter, defineResource, MemoryState, readOnly } from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies read by path
type Body = any;
const WRITTEN = '2015-03-01T10:00:00+00:00';
let kernel: Kernel;

beforeEach(async () => {
  const state = new MemoryState();
  const event = defineResource({
    shortName: 'Event',
    schema: z.object({
      id: readOnly(z.int()),
      name: z.string(),
      startsAt: z.iso.datetime(),
      endsAt: z.iso.datetime().nullable().optional(),
    }),
    provider: state,
    processor: state,
    filters: [DateFilter(['startsAt'])],
  });
  kernel = createKernel({ routes: apiRoutes({ resources: [event] }), debug: false, environment: 'test' });
  await request(kernel).post('/api/events').set('Content-Type', 'application/ld+json')
    .send({ name: 'Launch', startsAt: '2015-03-01T10:00:00Z' }).expect(201);
});
afterEach(() => kernel.close());

describe('a datetime property', () => {
  test.each([['application/ld+json'], ['application/json'], ['application/hal+json']])(
    'an item in %s carries it with +00:00', async (accept) => {
      const res = await request(kernel).get('/api/events/1').set('Accept', accept).expect(200);
      expect(res.body.startsAt).toBe(WRITTEN);
      expect(res.body.endsAt).toBeNull();
    },
  );

  test.each([
    ['application/ld+json', (b: Body) => b['hydra:member'][0]],
    ['application/json', (b: Body) => b[0]],
    ['application/hal+json', (b: Body) => b._embedded.item[0]],
  ])('a collection in %s carries it with +00:00', async (accept, first) => {
    const res = await request(kernel).get('/api/events').set('Accept', accept).expect(200);
    expect(first(res.body).startsAt).toBe(WRITTEN);
  });

  test('the 201 of a POST writes what was sent in another offset as UTC +00:00', async () => {
    const res = await request(kernel).post('/api/events').set('Content-Type', 'application/json')
      .set('Accept', 'application/json').send({ name: 'Late', startsAt: '2015-03-01T12:30:00+02:00' }).expect(201);
    expect(res.body.startsAt).toBe('2015-03-01T10:30:00+00:00');
  });

  test('a PUT of the item as GET wrote it is accepted and changes nothing', async () => {
    const got = await request(kernel).get('/api/events/1').set('Accept', 'application/json').expect(200);
    const put = await request(kernel).put('/api/events/1').set('Content-Type', 'application/json')
      .set('Accept', 'application/json').send(got.body).expect(200);
    expect(put.body).toEqual(got.body);
  });

  test('a merge-patch that leaves the datetime alone keeps it', async () => {
    const res = await request(kernel).patch('/api/events/1').set('Content-Type', 'application/merge-patch+json')
      .set('Accept', 'application/json').send({ name: 'Renamed' }).expect(200);
    expect(res.body).toMatchObject({ name: 'Renamed', startsAt: WRITTEN });
  });

  test('a datetime filter reads the written form (its + encoded)', async () => {
    const res = await request(kernel).get(`/api/events?startsAt[after]=${encodeURIComponent(WRITTEN)}`)
      .set('Accept', 'application/json').expect(200);
    expect(res.body).toHaveLength(1);
  });
});
