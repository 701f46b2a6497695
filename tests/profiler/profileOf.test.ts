import express from 'express';
import request from 'supertest';
import { MemoryProfilerStorage } from '../../src/profiler/storage/MemoryProfilerStorage';
import { profileOf } from '../../src/testing';
import { bareKernel, layeredKernel, useKernel } from './kernel';

const kernel = useKernel(layeredKernel);

describe('profileOf(response, kernelOrStorage?)', () => {
  test('finds the kernel behind request(kernel()) and types each collector\'s data', async () => {
    const res = await request(kernel()).get('/api/books/2');
    const profile = await profileOf(res);
    expect(profile.token).toBe(res.headers['x-debug-token']);
    // typed access, no casts
    const route: string | undefined = profile.collectors.router.route;
    expect(route).toBe('book_show');
    expect(profile.collectors.router.routeParams).toEqual({ id: '2', _format: null });
    expect(profile.collectors.request.statusCode).toBe(200);
    expect(profile.collectors.time.events.map((e) => e.name)).toContain('router');
    expect(profile.collectors.exception.exceptions).toEqual([]);
    expect(profile.collectors.locale.enabled && profile.collectors.locale.locale).toBe('en');
  });

  test('reads the exception chain and the routing data of a 405', async () => {
    const profile = await profileOf(await request(kernel()).get('/api/books/abc'));
    expect(profile.statusCode).toBe(405);
    expect(profile.collectors.router.route).toBeUndefined();
    expect(profile.collectors.exception.exceptions.map((e) => e.class)).toEqual(['MethodNotAllowedHttpError', 'MethodNotAllowedError']);
  });

  test('reads the security layer\'s data', async () => {
    const profile = await profileOf(await request(kernel()).get('/admin').auth('admin', 'admin'));
    const security = profile.collectors.security;
    expect(security.enabled && security.user).toBe('admin');
    expect(security.enabled && security.roles).toEqual(['ROLE_ADMIN']);
  });

  test('reads the log records', async () => {
    const profile = await profileOf(await request(kernel()).get('/t/logs'));
    expect(profile.collectors.logger.records.map((r) => [r.label, r.msg])).toEqual([
      ['debug', 'debug detail'], ['info', 'loaded book'], ['warn', 'slow query'], ['error', 'db failed'],
    ]);
    expect(profile.collectors.logger.records[1].context).toEqual({ bookId: 7, password: '******' });
  });

  test('takes the kernel or its store when the kernel is mounted in another app', async () => {
    const storage = new MemoryProfilerStorage();
    const k = bareKernel({ profiler: { storage } });
    const host = express();
    host.use('/app', k);
    const res = await request(host).get('/app/api');
    await expect(profileOf(res)).rejects.toThrow('profileOf: no profiler store found. Pass the kernel or its store: profileOf(res, kernel).');
    expect((await profileOf(res, k)).collectors.router.route).toBe('api_entrypoint');
    expect((await profileOf(res, storage)).collectors.router.route).toBe('api_entrypoint');
    await k.close();
  });

  test('accepts a fetch Response', async () => {
    const res = await request(kernel()).get('/api');
    const fetchLike = { headers: new Headers({ 'X-Debug-Token': String(res.headers['x-debug-token']) }) };
    expect((await profileOf(fetchLike, kernel())).collectors.router.route).toBe('api_entrypoint');
  });

  test('throws when the response has no token, or its profile is gone', async () => {
    const page = await request(kernel()).get('/_profiler/');
    await expect(profileOf(page)).rejects.toThrow('profileOf: the response has no X-Debug-Token header.');
    await expect(profileOf({ headers: { 'x-debug-token': 'abcdef' } }, kernel())).rejects.toThrow('profileOf: no profile stored for token "abcdef" (evicted, expired, or another store).');
  });
});
