import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { createKernel, KernelConfigError, type KernelOptions } from '../../src';
import { MethodNotAllowedHttpError, NotFoundHttpError } from '../../src/http/errors';
import { Route, RouteCollection } from '../../src/routing';
import { ResourceNotFoundError } from '../../src/routing/errors';

function appRoutes(): RouteCollection {
  const routes = new RouteCollection();
  routes.add('items', new Route('/items', { methods: ['GET'], controller: (_req, res) => { res.json(['a']); } }));
  routes.add('boom', new Route('/boom', { controller: () => { throw new Error('Kaboom'); } }));
  return routes;
}

/** A host app with the kernel under /app, its own route after the mount and its own error middleware. */
function hostWith(options: Omit<KernelOptions, 'routes'>): Express {
  const host = express();
  host.use('/app', createKernel({ routes: appRoutes(), ...options }));
  host.get('/app/legacy', (_req, res) => { res.send('host legacy page'); });
  host.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(599).json({ hostSaw: (err as Error).name, status: (err as { status?: number }).status });
  });
  return host;
}

describe('onError(err, req)', () => {
  test('is called once per rendered error with the HTTP error and the request', async () => {
    const seen: Array<{ err: unknown; url: string }> = [];
    const host = hostWith({ onError: (err, req) => { seen.push({ err, url: req.originalUrl }); } });

    expect((await request(host).get('/app/nope')).status).toBe(404);
    expect((await request(host).delete('/app/items')).status).toBe(405);
    expect((await request(host).get('/app/boom')).status).toBe(500);
    expect((await request(host).get('/app/items')).status).toBe(200);

    expect(seen.map((s) => s.url)).toEqual(['/app/nope', '/app/items', '/app/boom']);
    expect(seen[0].err).toBeInstanceOf(NotFoundHttpError);
    expect((seen[0].err as Error).cause).toBeInstanceOf(ResourceNotFoundError);
    expect(seen[1].err).toBeInstanceOf(MethodNotAllowedHttpError);
    expect((seen[2].err as Error).message).toBe('Kaboom');
  });

  test('that throws or rejects is logged, and the error response still goes out', async () => {
    const lines: Array<{ msg: string; err?: { message: string } }> = [];
    const logger = pino({ level: 'error' }, { write: (s: string) => { lines.push(JSON.parse(s)); } });
    let calls = 0;
    const host = hostWith({
      logger,
      onError: (err) => {
        calls++;
        if ((err as Error).message === 'Kaboom') return Promise.reject(new Error('sentry is down'));
        throw new Error('hook bug');
      },
    });

    const notFound = await request(host).get('/app/nope');
    expect(notFound.status).toBe(404);
    expect(notFound.text).toContain('404 Not Found');
    const failed = await request(host).get('/app/boom');
    expect(failed.status).toBe(500);
    await new Promise((resolve) => setImmediate(resolve));

    expect(calls).toBe(2);
    const hookLines = lines.filter((l) => l.msg === 'onError hook failed').map((l) => l.err?.message);
    expect(hookLines.sort()).toEqual(['hook bug', 'sentry is down']);
  });

  test('is rejected at construction when it is not a function', () => {
    expect(() => createKernel({ routes: appRoutes(), onError: 'sentry' as never }))
      .toThrow('Invalid option "onError": expected a function (error, req) => void (got "sentry").');
  });
});

describe("errors: 'next'", () => {
  test("hands every error to the host app's error middleware instead of rendering it", async () => {
    const reported: unknown[] = [];
    const host = hostWith({ errors: 'next', onError: (err) => { reported.push(err); } });

    const notFound = await request(host).get('/app/nope');
    expect(notFound.status).toBe(599);
    expect(notFound.body).toEqual({ hostSaw: 'NotFoundHttpError', status: 404 });
    const failed = await request(host).get('/app/boom');
    expect(failed.body).toEqual({ hostSaw: 'Error' });
    expect(reported).toEqual([]);
  });

  test('still records the exception in the profile', async () => {
    const kernel = createKernel({ routes: appRoutes(), debug: true, errors: 'next' });
    const host = express();
    host.use('/app', kernel);
    host.use((_err: unknown, _req: Request, res: Response, _next: NextFunction) => { res.status(500).send('host error page'); });
    const res = await request(host).get('/app/boom');
    expect(res.text).toBe('host error page');
    const profile = await kernel.profiler!.storage.read(String(res.headers['x-debug-token']));
    expect(profile?.exception?.[0].message).toBe('Kaboom');
  });
});

describe("notFound: 'next'", () => {
  const reported: unknown[] = [];
  const host = hostWith({ notFound: 'next', onError: (err) => { reported.push(err); } });

  test('lets a path no route matches fall through to the host route after the mount', async () => {
    const res = await request(host).get('/app/legacy');
    expect(res.status).toBe(200);
    expect(res.text).toBe('host legacy page');
    expect(reported).toEqual([]);
  });

  test("a path unknown to both ends at Express's own 404", async () => {
    const res = await request(host).get('/app/neither');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Cannot GET /app/neither');
  });

  test('still renders a 405 (the path is the kernel\'s) and serves matched routes', async () => {
    const res = await request(host).delete('/app/items');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect((await request(host).get('/app/items')).body).toEqual(['a']);
  });

  test('is off by default: the kernel answers 404 itself', async () => {
    const res = await request(hostWith({})).get('/app/legacy');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('host legacy page');
  });
});

describe('errorTemplates', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-error-templates-'));
  const page404 = path.join(dir, 'error404.html.njk');
  const pageAny = path.join(dir, 'error.html.njk');
  fs.writeFileSync(page404, '<h1>Lost? ({{ status }} {{ reason }})</h1><p>{{ message }}</p>');
  fs.writeFileSync(pageAny, '{% extends "error/error.html.njk" %}');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("render the status's own page, auto-escaped, instead of the kernel's", async () => {
    const host = hostWith({ errorTemplates: { 404: page404 } });
    const res = await request(host).get('/app/nope').set('Referer', '<script>alert(1)</script>');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<h1>Lost\? \(404 Not Found\)<\/h1><p>No route found for &quot;GET http:\/\/127\.0\.0\.1:\d+\/app\/nope&quot;/);
    expect(res.text).toContain('(from &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)');
  });

  test('fall back to `default`, then to the kernel page; a 5xx message stays hidden', async () => {
    const withDefault = await request(hostWith({ errorTemplates: { 404: page404, default: pageAny } })).get('/app/boom');
    expect(withDefault.status).toBe(500);
    expect(withDefault.text).toContain('The server returned a "500 Internal Server Error".');
    expect(withDefault.text).not.toContain('Kaboom');
    const without = await request(hostWith({ errorTemplates: { 404: page404 } })).delete('/app/items');
    expect(without.status).toBe(405);
    expect(without.text).toContain('Oops! An Error Occurred');
  });

  test('leave the debug exception page and problem details alone', async () => {
    const host = hostWith({ debug: true, errorTemplates: { 404: page404 } });
    expect((await request(host).get('/app/nope')).text).toContain('NotFoundHttpError');
    const json = await request(host).get('/app/nope').set('Accept', 'application/json');
    expect(json.body).toMatchObject({ title: 'Not Found', status: 404 });
  });

  test('that fails while rendering is logged, and the kernel page answers', async () => {
    const failing = path.join(dir, 'failing.njk');
    fs.writeFileSync(failing, '{{ missingMacro() }}');
    const lines: Array<{ msg: string }> = [];
    const logger = pino({ level: 'error' }, { write: (s: string) => { lines.push(JSON.parse(s)); } });
    const res = await request(hostWith({ logger, errorTemplates: { 404: failing } })).get('/app/nope');
    expect(res.status).toBe(404);
    expect(res.text).toContain('The server returned a "404 Not Found".');
    expect(lines.map((l) => l.msg)).toEqual(['error template failed']);
  });

  test('are checked at construction, naming the option', () => {
    const create = (errorTemplates: unknown): unknown =>
      createKernel({ routes: appRoutes(), errorTemplates: errorTemplates as never });
    expect(() => create({ 404: path.join(dir, 'missing.njk') })).toThrow(KernelConfigError);
    expect(() => create({ 404: path.join(dir, 'missing.njk') }))
      .toThrow(`Invalid option "errorTemplates.404": no readable template file at ${JSON.stringify(path.join(dir, 'missing.njk'))}.`);
    expect(() => create({ default: dir })).toThrow('Invalid option "errorTemplates.default": no readable template file');
    expect(() => create({ 404: 'templates/404.html.njk' })).toThrow('Invalid option "errorTemplates.404": expected an absolute path');
    expect(() => create({ 302: page404 })).toThrow('Invalid option "errorTemplates.302": expected a status code from 400 to 599');
    const broken = path.join(dir, 'broken.njk');
    fs.writeFileSync(broken, '{% if %}');
    expect(() => create({ 500: broken })).toThrow(/^Invalid option "errorTemplates\.500": the template ".*broken\.njk" does not compile/);
  });
});

describe('debug output and the client IP (profiler.allowedIps)', () => {
  // the test client connects from loopback, a trusted proxy that forwards for a remote client
  const debugHost = (extra: Omit<KernelOptions, 'routes'> = {}): Express => hostWith({ debug: true, trustedProxies: ['loopback'], ...extra });

  test('a loopback client gets the exception page and X-Debug-Exception headers', async () => {
    const res = await request(debugHost()).get('/app/boom');
    expect(res.text).toContain('<title>Kaboom (500 Internal Server Error)</title>');
    expect(res.headers['x-debug-exception']).toBe('Kaboom');
    expect(res.headers['x-debug-exception-file']).toMatch(/hostErrors\.test\.ts:\d+$/);
  });

  test('a remote client gets the plain page: no stack, no X-Debug-Exception*, no details in problem+json', async () => {
    const host = debugHost();
    const page = await request(host).get('/app/boom').set('X-Forwarded-For', '203.0.113.9');
    expect(page.status).toBe(500);
    expect(page.text).toContain('Oops! An Error Occurred');
    expect(page.text).not.toContain('Kaboom');
    expect(page.text).not.toContain('hostErrors.test.ts');
    expect(page.headers['x-debug-exception']).toBeUndefined();
    expect(page.headers['x-debug-exception-file']).toBeUndefined();
    const json = await request(host).get('/app/boom').set('X-Forwarded-For', '203.0.113.9').set('Accept', 'application/json');
    expect(json.body).toMatchObject({ title: 'Internal Server Error', status: 500, detail: 'Internal Server Error' });
    expect(json.body.class).toBeUndefined();
  });

  test('a client that profiler.allowedIps lets in sees debug output', async () => {
    const host = debugHost({ profiler: { allowedIps: ['loopback', '203.0.113.0/24'] } });
    const res = await request(host).get('/app/boom').set('X-Forwarded-For', '203.0.113.9');
    expect(res.headers['x-debug-exception']).toBe('Kaboom');
    expect(res.text).toContain('<title>Kaboom (500 Internal Server Error)</title>');
  });
});
