import type { Response } from 'express';
import request from 'supertest';
import { Route } from '../../src/routing/Route';
import { layeredKernel, testRoutes, tokenOf, useKernel } from './kernel';

/** The test routes plus a page whose controller wraps `res.end` itself, as compression or a logger would. */
function routes(): ReturnType<typeof testRoutes> {
  const r = testRoutes();
  r.add('t_wrapped', new Route('/t/wrapped', {
    controller: (_req, res) => {
      type End = (this: Response, ...args: unknown[]) => Response;
      const ended = res as unknown as { end: End };
      const end = ended.end;
      ended.end = function wrapped(this: Response, ...args) {
        res.setHeader('X-Wrapped', 'yes');
        return end.apply(this, args);
      };
      res.type('html').send('<!DOCTYPE html><html><head><title>w</title></head><body>wrapped</body></html>');
    },
  }));
  return r;
}

const kernel = useKernel(() => layeredKernel({ routes: routes() }));

/** A session cookie, from a login (HTTP Basic on `/admin` starts a session). */
async function sessionCookie(): Promise<string> {
  const res = await request(kernel()).get('/admin').auth('admin', 'admin');
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('EKSESSID='));
  if (cookie === undefined) throw new Error(`no session cookie on ${res.status}`);
  return cookie.slice(0, cookie.indexOf(';'));
}

describe('res.end of a profiled response', () => {
  test('a controller\'s own res.end wrapper runs, and the page gets the toolbar and its profile', async () => {
    const res = await request(kernel()).get('/t/wrapped').expect(200);
    const token = tokenOf(res);
    expect(res.headers['x-wrapped']).toBe('yes');
    expect(res.text).toContain(`data-token="${token}"`);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(await kernel().profiler?.storage.has(token)).toBe(true);
  });

  test('two requests in a row each end through their own hook (no wrapper leaks to the next)', async () => {
    const first = await request(kernel()).get('/t/wrapped').expect(200);
    const second = await request(kernel()).get('/t/logs').expect(200);
    expect(second.headers['x-wrapped']).toBeUndefined();
    expect(second.text).toContain(`data-token="${tokenOf(second)}"`);
    expect(tokenOf(second)).not.toBe(tokenOf(first));
  });
});

describe('res.end of a response the profiler does not profile (its own pages)', () => {
  test('a profiler page requested with a session cookie (express-session wraps its end) arrives whole', async () => {
    const cookie = await sessionCookie();
    const profiled = await request(kernel()).get('/t/logs').set('Cookie', cookie).expect(200);
    const page = await request(kernel()).get(`/_profiler/${tokenOf(profiled)}`).set('Cookie', cookie).expect(200);
    expect(page.headers['x-debug-token']).toBeUndefined();
    expect(page.text).toMatch(/<\/html>\s*$/);
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.text));
  });
});
