import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { NULL_STOPWATCH } from '../../src/profiler/Stopwatch';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { Route } from '../../src/routing/Route';
import { profileOf } from '../../src/testing';

function routes(): RouteCollection {
  const r = new RouteCollection();
  r.add('timed', new Route('/timed', {
    controller: (req, res) => {
      req.stopwatch.start('db.query', 'doctrine');
      const spin = Date.now() + 2;
      while (Date.now() < spin) { /* 2 ms of work */ }
      req.stopwatch.stop('db.query');
      res.json({ enabled: req.stopwatch.enabled });
    },
  }));
  return r;
}

describe('req.stopwatch', () => {
  test('a span started and stopped by the controller is in the profile, inside the controller span', async () => {
    const kernel = createKernel({ routes: routes(), debug: true });
    const res = await request(kernel).get('/timed');
    expect(res.body).toEqual({ enabled: true });
    const events = (await profileOf(res)).collectors.time.events;
    const query = events.find((e) => e.name === 'db.query');
    const controller = events.find((e) => e.name === 'controller');
    expect(query).toMatchObject({ category: 'doctrine' });
    expect(controller).toMatchObject({ category: 'controller' });
    expect(query!.end - query!.start).toBeGreaterThan(0);
    expect(query!.start).toBeGreaterThanOrEqual(controller!.start);
    expect(query!.end).toBeLessThanOrEqual(controller!.end);
  });

  test('a 404 shows the error layer, the page rendering and the profile collection on the timeline', async () => {
    const kernel = createKernel({ routes: routes(), debug: true });
    const res = await request(kernel).get('/nope');
    expect(res.status).toBe(404);
    const events = (await profileOf(res)).collectors.time.events;
    const byName = (name: string) => events.find((e) => e.name === name);
    expect(byName('router')).toMatchObject({ category: 'layer' });
    expect(byName('error')).toMatchObject({ category: 'layer' });
    expect(byName('error.render')).toMatchObject({ category: 'template' });
    expect(byName('profiler.collect')).toMatchObject({ category: 'profiler' });
    // rendering happens inside the error layer, the collection after the page was rendered
    expect(byName('error.render')!.start).toBeGreaterThanOrEqual(byName('error')!.start);
    expect(byName('profiler.collect')!.start).toBeGreaterThanOrEqual(byName('error.render')!.end);
  });

  test('with debug off it is the no-op stopwatch: spans record nothing and calls are harmless', async () => {
    const kernel = createKernel({ routes: routes(), debug: false });
    const res = await request(kernel).get('/timed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false });
    expect(NULL_STOPWATCH.events).toEqual([]);
    expect(NULL_STOPWATCH.stop('db.query')).toBeUndefined();
  });

  test('stop() ends the latest running span of the name and tells when none runs', () => {
    const { Stopwatch } = jest.requireActual<typeof import('../../src/profiler/Stopwatch')>('../../src/profiler/Stopwatch');
    const sw = new Stopwatch(0);
    sw.start('a');
    sw.start('a', 'io');
    expect(sw.isStarted('a')).toBe(true);
    expect(sw.stop('a')).toMatchObject({ category: 'io' });
    expect(sw.stop('a')).toMatchObject({ category: 'default' });
    expect(sw.stop('a')).toBeUndefined();
    expect(sw.isStarted('a')).toBe(false);
  });
});
