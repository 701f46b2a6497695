import { tracingChannel } from 'node:diagnostics_channel';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { createKernel } from '../../src';
import { Route, RouteCollection } from '../../src/routing';

function routes(): RouteCollection {
  const r = new RouteCollection();
  r.add('plain', new Route('/plain', {
    methods: ['GET'],
    controller: (req, res) => { res.json({ baseUrl: req.baseUrl, originalUrl: req.originalUrl }); },
  }));
  return r;
}

describe('a kernel whose layers are its only middleware (handled without a router step)', () => {
  test('standalone, an error it hands on ends at Express\'s final handler', async () => {
    const kernel = createKernel({ routes: routes(), notFound: 'next' });
    const res = await request(kernel).get('/nope');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Cannot GET /nope');
    expect((await request(kernel).get('/plain')).body).toEqual({ baseUrl: '', originalUrl: '/plain' });
  });

  test('mounted, the host sees its own baseUrl and params again after the kernel', async () => {
    const kernel = createKernel({ routes: routes(), notFound: 'next' });
    const host = express();
    host.use('/app/:tenant', kernel);
    host.use('/app/:tenant', (req: Request, res: Response) => {
      res.status(299).json({ baseUrl: req.baseUrl, params: req.params });
    });
    expect((await request(host).get('/app/acme/plain')).body).toEqual({ baseUrl: '/app/acme', originalUrl: '/app/acme/plain' });
    const fallThrough = await request(host).get('/app/acme/other');
    expect(fallThrough.status).toBe(299);
    expect(fallThrough.body).toEqual({ baseUrl: '/app/acme', params: { tenant: 'acme' } });
  });

  test('middleware added after creation runs (Express\'s own path takes over)', async () => {
    const kernel = createKernel({ routes: routes(), errors: 'next' });
    kernel.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
      res.status(418).send(`late handler: ${err.name}`);
    });
    const res = await request(kernel).get('/nope');
    expect([res.status, res.text]).toEqual([418, 'late handler: NotFoundHttpError']);
  });

  test('a subscriber to the router\'s tracing channel sees the kernel\'s layer', async () => {
    const kernel = createKernel({ routes: routes() });
    const channel = tracingChannel('express.router.request');
    const seen: string[] = [];
    // the channel is the process's: count this kernel's requests only (another suite's may be in flight)
    const start = (ctx: unknown): void => {
      const { req } = ctx as { req: Request };
      if (req.app === kernel) seen.push(req.originalUrl);
    };
    channel.start.subscribe(start);
    try {
      expect((await request(kernel).get('/plain')).status).toBe(200);
    } finally {
      channel.start.unsubscribe(start);
    }
    expect(seen).toEqual(['/plain']);
    expect((await request(kernel).get('/plain')).status).toBe(200);
    expect(seen).toEqual(['/plain']);
  });
});
