/**
 * Type tests (expect-type): what the kernel declares on Express's request and session, checked
 * by the compiler (ts-jest fails this file on a type error). The same declarations, compiled by a
 * strict consumer with `skipLibCheck: false` next to pino-http, are checked in
 * tests/package/pack.test.ts.
 */
import type { Request } from 'express';
import type { SessionData } from 'express-session';
import { expectTypeOf } from 'expect-type';
import type { Logger } from 'pino';
import type { createClient } from 'redis';
import * as root from '../../src';
import type { KernelRequestState } from '../../src/kernel/state';
import { requestLog } from '../../src/profiler/requestLogger';
import type { SecurityUser } from '../../src/security';
import { openRedis, type RedisClient } from '../../src/storage/redis';

describe('Request augmentations', () => {
  test('req.kernel, req.locale and req.timeZone may be absent (outside a kernel, or without the layer)', () => {
    expectTypeOf<Request['kernel']>().toEqualTypeOf<KernelRequestState | undefined>();
    expectTypeOf<Request['locale']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Request['timeZone']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Request['user']>().toEqualTypeOf<SecurityUser | undefined>();
  });

  test('req.log is left to pino-http: the kernel does not declare it, requestLog(req) types it', () => {
    expectTypeOf<'log' extends keyof Request ? true : false>().toEqualTypeOf<false>();
    expectTypeOf(requestLog).parameter(0).toExtend<object>();
    expectTypeOf(requestLog).returns.toEqualTypeOf<Logger | undefined>();
  });

  test('the session data the locale and time zone layers read is optional', () => {
    expectTypeOf<SessionData['locale']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SessionData['timeZone']>().toEqualTypeOf<string | undefined>();
  });
});

describe('RedisClient', () => {
  test("node-redis's own client fits the kernel's RedisClient, so the declarations need no redis package", () => {
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClient>();
    type NodeRedis = ReturnType<typeof createClient>;
    expectTypeOf(openRedis<NodeRedis>).returns.resolves.toEqualTypeOf<NodeRedis>();
    expectTypeOf(openRedis).returns.resolves.toEqualTypeOf<RedisClient>();
  });
});

describe('the root entry', () => {
  test('keeps createKernel, the routing essentials and the errors; the demo and the layers are in subpaths', () => {
    expectTypeOf(root).toHaveProperty('createKernel');
    expectTypeOf(root).toHaveProperty('UrlGenerator');
    expectTypeOf(root).toHaveProperty('MethodNotAllowedHttpError');
    expectTypeOf(root).not.toHaveProperty('createDemoKernel');
    expectTypeOf(root).not.toHaveProperty('sessionLayer');
    expectTypeOf(root).not.toHaveProperty('Profiler');
  });
});
