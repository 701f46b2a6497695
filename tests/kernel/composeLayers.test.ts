import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import request from 'supertest';
import { composeLayers } from '../../src/kernel/composeLayers';

/** Types a plain handler (the list also takes error handlers, so it cannot infer one). */
const plain = (fn: RequestHandler): RequestHandler => fn;

/** An app whose one `use` is the composed list, with a host handler and error handler after it. */
function host(...handlers: Parameters<typeof composeLayers>[0]) {
  const app = express();
  app.use(composeLayers(handlers));
  app.use((_req, res) => { res.send('host'); });
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => { res.status(500).send(`host error: ${err.message}`); });
  return app;
}

describe('composeLayers(handlers)', () => {
  test('runs the handlers in order and skips error handlers while no error is passed on', async () => {
    const seen: string[] = [];
    const app = host(
      plain((_req, _res, next) => { seen.push('a'); next(); }),
      (err: unknown, _req: Request, _res: Response, next: NextFunction) => { seen.push('error'); next(err); },
      plain((_req, res) => { seen.push('b'); res.send('b'); }),
    );
    expect((await request(app).get('/')).text).toBe('b');
    expect(seen).toEqual(['a', 'b']);
  });

  test('a throw and a rejected promise go to the next error handler, skipping plain handlers', async () => {
    const app = host(
      plain((req) => { if (req.path === '/throw') throw new Error('thrown'); return Promise.reject(new Error('rejected')); }),
      plain((_req, res) => { res.send('skipped'); }),
      (err: Error, _req: Request, res: Response, _next: NextFunction) => { res.status(418).send(err.message); },
    );
    expect((await request(app).get('/throw')).text).toBe('thrown');
    const rejected = await request(app).get('/reject');
    expect([rejected.status, rejected.text]).toEqual([418, 'rejected']);
  });

  test('an error no handler takes, next() past the end and next("router") reach the host app', async () => {
    expect((await request(host(plain((_req, _res, next) => next(new Error('left over'))))).get('/')).text).toBe('host error: left over');
    expect((await request(host(plain((_req, _res, next) => next()))).get('/')).text).toBe('host');
    const skipped = host(plain((_req, _res, next) => next('router')), plain((_req, res) => { res.send('not me'); }));
    expect((await request(skipped).get('/')).text).toBe('host');
  });
});
