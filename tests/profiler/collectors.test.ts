import path from 'node:path';
import type { Request } from 'express';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import type { CollectorSummary, DataCollector } from '../../src/profiler/collectors/DataCollector';
import type { Profile } from '../../src/profiler/Profile';
import type { ProfilerStorage } from '../../src/profiler/storage/ProfilerStorage';
import { MemoryProfilerStorage } from '../../src/profiler/storage/MemoryProfilerStorage';
import { setRequestLog } from '../../src/profiler/requestLogger';
import { bareKernel, tokenOf } from './kernel';

interface CacheData { hits: number; key: string }

/** A user collector with its own panel template, as the DataCollector docs show. */
class CacheCollector implements DataCollector<CacheData> {
  readonly name = 'cache';
  readonly label = 'Cache';
  readonly template = path.join(__dirname, 'fixtures', 'cache.html.njk');
  collect(req: Request): CacheData {
    return { hits: 3, key: typeof req.query.key === 'string' ? req.query.key : '' };
  }
  summary(data: CacheData): CollectorSummary {
    return { text: `${data.hits} hits`, status: 'success' };
  }
}

describe('a user collector (profiler.collectors)', () => {
  test('gets a menu entry, its panel rendered from its template (escaped), and a toolbar block', async () => {
    const k = bareKernel({ profiler: { collectors: [new CacheCollector()] } });
    const token = tokenOf(await request(k).get('/?key=<b>x</b>'));
    const panel = await request(k).get(`/_profiler/${token}?panel=cache`);
    expect(panel.status).toBe(200);
    expect(panel.text).toContain('<p class="hits">3 hits for &lt;b&gt;x&lt;/b&gt;</p>');
    expect(panel.text).toContain(`<a href="/_profiler/${token}?panel=cache" aria-current="page"><span class="label">Cache</span></a>`);
    const wdt = (await request(k).get(`/_wdt/${token}`)).text;
    expect(wdt).toContain(`<a class="ek-block ek-block-cache ek-status-success" href="/_profiler/${token}?panel=cache" title="Cache"><span class="ek-label">Cache</span> <span class="ek-value">3 hits</span></a>`);
    await k.close();
  });

  test('without a template, its data shows as JSON', async () => {
    const plain: DataCollector = { name: 'plain', collect: () => ({ answer: 42 }) };
    const k = bareKernel({ profiler: { collectors: [plain] } });
    const token = tokenOf(await request(k).get('/api'));
    const html = (await request(k).get(`/_profiler/${token}?panel=plain`)).text;
    expect(html).toContain('<h2 id="plain-title">plain</h2>');
    expect(html).toContain('&quot;answer&quot;: 42');
    await k.close();
  });

  test.each([
    [{ name: 'request', collect: () => 1 }, 'Invalid option "profiler.collectors": two collectors are named "request"; rename one'],
    [{ name: 'has space', collect: () => 1 }, 'Invalid option "profiler.collectors": a collector\'s name must be letters, digits, "_" or "-", starting with a letter (got "has space").'],
    [{ name: 'x', template: 'relative.njk', collect: () => 1 }, 'Invalid option "profiler.collectors": collector "x" has template "relative.njk", which is not an absolute path to an existing file'],
    [{ name: 'x', template: '/nonexistent/panel.njk', collect: () => 1 }, 'collector "x" has template "/nonexistent/panel.njk"'],
  ])('a bad collector fails at construction: %o', (collector, message) => {
    expect(() => bareKernel({ profiler: { collectors: [collector as DataCollector] } })).toThrow(KernelConfigError);
    expect(() => bareKernel({ profiler: { collectors: [collector as DataCollector] } })).toThrow(message);
  });

  test('a collector that throws loses its data, not the profile', async () => {
    const broken: DataCollector = { name: 'broken', collect: () => { throw new Error('no'); }, summary: () => ({ text: 'x' }) };
    const k = bareKernel({ profiler: { collectors: [broken] } });
    const res = await request(k).get('/api');
    expect(res.status).toBe(200);
    const profile = await k.profiler?.storage.read(tokenOf(res));
    expect(profile?.collectors.broken).toBeUndefined();
    expect(profile?.collectors.router).toBeDefined();
    const html = (await request(k).get(`/_profiler/${tokenOf(res)}?panel=broken`)).text;
    expect(html).toContain('No data was collected.');
    expect(html).toMatch(/<li class="broken label-status-disabled selected disabled">/);
    await k.close();
  });
});

describe('a failing store', () => {
  test('never fails the request: the response is sent without a profile', async () => {
    const memory = new MemoryProfilerStorage();
    const failing: ProfilerStorage = {
      read: (t) => memory.read(t), find: (c) => memory.find(c), has: (t) => memory.has(t), purge: () => memory.purge(),
      write: async (_p: Profile) => { throw new Error('disk full'); },
    };
    const k = bareKernel({ profiler: { storage: failing } });
    const res = await request(k).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>home</h1>');
    expect(await memory.find({})).toEqual([]);
    await k.close();
  });

  test('a store that is down never fails the request: every page is served whole, nothing is asked of the store before the response', async () => {
    const calls: string[] = [];
    const down: ProfilerStorage = {
      read: async () => { calls.push('read'); throw new Error('connection refused'); },
      find: async () => { calls.push('find'); throw new Error('connection refused'); },
      purge: async () => { calls.push('purge'); throw new Error('connection refused'); },
      has: async () => { calls.push('has'); throw new Error('connection refused'); },
      write: async () => { calls.push('write'); throw new Error('connection refused'); },
    };
    const k = bareKernel({ profiler: { storage: down } });
    for (let i = 0; i < 3; i++) {
      const res = await request(k).get('/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h1>home</h1>');
    }
    expect(calls).toEqual(['write', 'write', 'write']);
    await k.close();
  });
});

describe('req.log', () => {
  const logsOf = async (k: ReturnType<typeof bareKernel>, token: string): Promise<string[]> => {
    const profile = await k.profiler?.storage.read(token);
    const logger = profile?.collectors.logger as { records: Array<{ msg: string }> } | undefined;
    return (logger?.records ?? []).map((r) => r.msg);
  };

  test('a logger a parent app set before the kernel is replaced on profiled requests: the Logs panel gets the records', async () => {
    const k = bareKernel();
    const parent = express();
    const outside: string[] = [];
    parent.use((req, _res, next) => {
      setRequestLog(req, pino({ level: 'debug' }, { write: (line: string) => { outside.push((JSON.parse(line) as { msg: string }).msg); } }));
      next();
    });
    parent.use(k);
    const res = await request(parent).get('/t/logs');
    expect(res.status).toBe(200);
    expect(await logsOf(k, tokenOf(res))).toEqual(['debug detail', 'loaded book', 'slow query', 'db failed']);
    expect(outside).toEqual([]);
    await k.close();
  });

  test('a request that never logs has an empty Logs panel, the next one that does lists its records', async () => {
    const k = bareKernel();
    const quiet = await request(k).get('/api');
    expect(await logsOf(k, tokenOf(quiet))).toEqual([]);
    const noisy = await request(k).get('/t/logs');
    expect(await logsOf(k, tokenOf(noisy))).toHaveLength(4);
    await k.close();
  });
});
