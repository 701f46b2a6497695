/**
 * A benchmark server, forked by the `http` and `profiler` sections so the load generator
 * (autocannon, in the parent) and the server do not share an event loop.
 *
 * Usage (by `fork`, with an IPC channel): `node build/bench/servers/server.js '<ServerConfig JSON>'`.
 * It listens on 127.0.0.1 on a free port and sends `{ type: 'ready', port }`; it answers
 * `{ type: 'rss' }` with its memory usage (after a full GC when asked and `--expose-gc` is on),
 * and `{ type: 'stop' }` by closing everything and exiting 0 (so `--cpu-prof` writes its profile).
 * Nothing is added to the applications under test: memory is reported over IPC.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import helmet from 'helmet';
import cors from 'cors';
import session from 'express-session';
import { createDemoKernel } from '../../src/demo/app';
import { createDemoRoutes } from '../../src/demo/routes';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import type { KernelOptions } from '../../src/kernel/options';
import { createProfilerStorage } from '../../src/profiler/storage/createProfilerStorage';
import type { ClosableProfilerStorage } from '../../src/profiler/storage/ProfilerStorage';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { SqliteThrottleStore } from '../../src/security/SqliteThrottleStore';
import type { FirewallOptions } from '../../src/security/FirewallOptions';
import { SqliteSessionStore } from '../../src/session/SqliteSessionStore';
import { openSqlite, type SqliteDatabase } from '../../src/storage/sqlite';
import { TEMPLATES_DIR } from '../../src/http/templates';
import { openDemoDatabase } from '../../src/demo/database';
import { apiPeer } from './apiPeer';
import { embeddedBenchRoutes } from './embeddedResources';
import { BENCH_SECRET, LADDER, type FromServer, type ServerConfig, type ToServer, type TrickVariant } from './config';

interface Built {
  /** The request listener the server runs: an Express app, or Fastify's router. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** The demo's firewall configuration (src/demo/app.ts), on a throttling store in `database`. */
function demoSecurity(database: SqliteDatabase): FirewallOptions {
  const provider = new InMemoryUserProvider({
    users: {
      admin: { password: 'admin', roles: ['ROLE_ADMIN'] },
      user: { password: 'user', roles: ['ROLE_USER'] },
    },
  });
  return {
    firewalls: [{ name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()] }],
    accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
    roleHierarchy: { ROLE_ADMIN: ['ROLE_USER'] },
    throttling: { store: new SqliteThrottleStore(database) },
  };
}

const DEMO_CORS = { paths: { '^/api': { origins: [/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/], credentials: true, maxAge: 3600 } } };
const DEMO_LOCALE = { defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de'] };
const DEMO_TIME_ZONE = { default: 'UTC' };

async function build(config: ServerConfig): Promise<Built> {
  switch (config.kind) {
    case 'express-bare': {
      const app = express();
      app.get('/', (_req, res) => { res.json({ ok: true }); });
      return { app, close: async () => undefined };
    }
    case 'fastify-bare': {
      // Fastify serves through our own http.Server, as the Express cells do: its serverFactory
      // hands over the request listener, which routes once `ready()` has resolved
      let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
      const app = Fastify({ logger: false, serverFactory: (h) => { handler = h; return createServer(h); } });
      app.get('/', async () => ({ ok: true }));
      await app.ready();
      if (handler === undefined) throw new Error('fastify-bare: serverFactory was not called');
      return { app: handler, close: async () => { await app.close(); } };
    }
    case 'express-plain': {
      const app = express();
      app.get('/plain', (_req, res) => { res.type('text/plain').send('plain'); });
      return { app, close: async () => undefined };
    }
    case 'express-stack': {
      const db = openSqlite(config.sqlitePath);
      const store = new SqliteSessionStore({ db });
      const app = express();
      app.use(helmet());
      app.use(cors());
      app.use(session({
        secret: BENCH_SECRET,
        store,
        saveUninitialized: false,
        resave: false,
        name: 'EKSESSID',
        cookie: { httpOnly: true, sameSite: 'lax' },
      }));
      app.get('/', (_req, res) => { res.json({ ok: true }); });
      return { app, close: async () => { store.stop(); db.close(); } };
    }
    case 'demo': {
      let storage: ClosableProfilerStorage | undefined;
      if (config.profilerSqlite !== undefined) {
        storage = await createProfilerStorage({ sqlitePath: config.profilerSqlite, ...config.caps });
      }
      const { debug, environment, sqlitePath } = config;
      const kernel = createDemoKernel({ debug, environment, sqlitePath, profilerStorage: storage });
      return { app: kernel, close: async () => { await kernel.close(); await storage?.close(); } };
    }
    case 'demo-profiler-off': {
      // createDemoKernel (src/demo/app.ts) with debug on, as it builds it, but the profiler off:
      // it has no option for that, so its createKernel call is repeated here.
      const database = openSqlite(config.sqlitePath, 'SQLITE_PATH');
      const kernel = createKernel({
        routes: createDemoRoutes(),
        debug: true,
        trustedProxies: [],
        profiler: { enabled: false },
        secret: BENCH_SECRET,
        cors: DEMO_CORS,
        session: { store: 'sqlite', sqlitePath: config.sqlitePath },
        security: demoSecurity(database),
        locale: DEMO_LOCALE,
        timeZone: DEMO_TIME_ZONE,
      });
      return { app: kernel, close: async () => { await kernel.close(); if (database.open) database.close(); } };
    }
    case 'api-demo': {
      const store = await openDemoDatabase({ SQLITE_PATH: config.sqlitePath });
      const kernel = createDemoKernel({
        debug: false, environment: 'bench', sqlitePath: config.kernelSqlitePath, store,
        extendRoutes: (routes) => { routes.addCollection(embeddedBenchRoutes(store)); },
      });
      return { app: kernel, close: async () => { await kernel.close(); await store.close(); } };
    }
    case 'api-peer': {
      const peer = apiPeer(config.sqlitePath, config.table, config.authorsTable);
      return { app: peer.app, close: async () => { peer.close(); } };
    }
    case 'ladder': {
      const on = new Set(LADDER.slice(0, config.layers));
      let database: SqliteDatabase | undefined;
      const options: KernelOptions = {
        routes: createDemoRoutes(),
        debug: false,
        environment: 'bench',
        securityHeaders: on.has('securityHeaders') ? {} : false,
      };
      if (on.has('cors')) options.cors = DEMO_CORS;
      if (on.has('session')) {
        options.secret = BENCH_SECRET;
        options.session = { store: 'sqlite', sqlitePath: config.sqlitePath };
      }
      if (on.has('security')) {
        database = openSqlite(config.sqlitePath);
        options.security = demoSecurity(database);
      }
      if (on.has('locale')) options.locale = DEMO_LOCALE;
      if (on.has('timeZone')) options.timeZone = DEMO_TIME_ZONE;
      const kernel: Kernel = createKernel(options);
      if (config.without !== undefined) takeOut(kernel, config.without);
      return { app: kernel, close: async () => { await kernel.close(); if (database?.open) database.close(); } };
    }
  }
}

/**
 * Takes a speed trick out of a built kernel (see {@link TrickVariant}); a build without the
 * trick (the `tricks` section's candidate) is left as it is.
 */
function takeOut(kernel: Kernel, trick: TrickVariant): void {
  if (trick === 'request-slots') {
    let names: readonly (string | symbol)[] = [];
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      names = (require('../../src/http/requestSlots') as { requestSlotNames(): readonly (string | symbol)[] }).requestSlotNames();
    } catch {
      return;
    }
    // a fresh prototype without the slot accessors (deleting them would leave the prototype in
    // dictionary mode, slower for every property read, which a kernel without slots never has)
    const own = Object.getOwnPropertyDescriptors(kernel.request) as Record<string | symbol, PropertyDescriptor>;
    for (const name of names) delete own[name];
    kernel.request = Object.create(Object.getPrototypeOf(kernel.request) as object, own) as typeof kernel.request;
    return;
  }
  const stack = (kernel as unknown as { router: { stack: Array<{ handle: { name: string } }> } }).router.stack;
  const layer = stack.find((l) => l.handle.name === 'securityHeaders');
  if (layer !== undefined) layer.handle = helmet(kernel.kernelOptions.securityHeaders || {});
}

/**
 * The kernel finds its templates (and the profiler its views and assets) at
 * `<src>/../../templates`, and the demo its routes at `<src>/../../config/routes.yaml`: the
 * package root from `src/http` (ts-node, jest) and from `dist/http`, but `build/` from the
 * benchmarks' `build/src/http`, where there are none. Link `build/templates` and `build/config`
 * to the package's folders.
 */
function linkPackageFolders(): void {
  const repo = path.resolve(__dirname, '..', '..', '..');
  for (const [folder, link] of [['templates', TEMPLATES_DIR], ['config', path.resolve(__dirname, '..', '..', 'config')]]) {
    if (fs.existsSync(link)) continue;
    try {
      fs.symlinkSync(path.join(repo, folder), link, 'dir');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

function send(message: FromServer): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as ServerConfig;
  linkPackageFolders();
  const built = await build(config);
  const server: Server = await new Promise((resolve, reject) => {
    const s = createServer(built.app);
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  server.keepAliveTimeout = 30_000;
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message: ToServer) => {
    if (message.type === 'rss') {
      if (message.gc === true && gc !== undefined) { gc(); gc(); }
      const m = process.memoryUsage();
      const cpu = process.cpuUsage();
      send({ type: 'rss', id: message.id, rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, cpuMicros: cpu.user + cpu.system, hrMicros: Number(process.hrtime.bigint() / 1000n) });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close(() => {
        void built.close().finally(() => process.exit(0));
      });
    }
  });
  // The parent went away without a 'stop': do not linger.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

main().catch((err: unknown) => {
  send({ type: 'error', message: err instanceof Error ? err.stack ?? err.message : String(err) });
  process.exit(1);
});
