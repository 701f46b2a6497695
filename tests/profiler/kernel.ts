import request from 'supertest';
import { createDemoRoutes } from '../../src/demo/routes';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import { requestLog } from '../../src/profiler/requestLogger';
import type { KernelOptions } from '../../src/kernel/options';
import type { Profile } from '../../src/profiler/Profile';
import { Route } from '../../src/routing/Route';
import type { RouteCollection } from '../../src/routing/RouteCollection';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';

/** The kernel's application secret in these tests; it must never show in a profile. */
export const APP_SECRET = 'kernel-secret-0123456789-abcdefghijklmnop';

/** Every built-in collector, in menu order. */
export const PANELS = ['request', 'time', 'memory', 'exception', 'logger', 'router', 'security', 'session', 'cors', 'locale', 'timezone', 'config'] as const;

/** The demo routes plus a few that exercise the toolbar and the logs. */
export function testRoutes(): RouteCollection {
  const routes = createDemoRoutes();
  const page = (body: string) => `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;
  routes.add('t_logs', new Route('/t/logs', {
    controller: (req, res) => {
      requestLog(req)?.debug('debug detail');
      requestLog(req)?.info({ bookId: 7, password: 'hunter2-in-log' }, 'loaded book');
      requestLog(req)?.warn('slow query');
      requestLog(req)?.error({ err: new Error('db down') }, 'db failed');
      res.type('html').send(page('logs'));
    },
  }));
  routes.add('t_attachment', new Route('/t/attachment', {
    controller: (_req, res) => { res.attachment('page.html'); res.type('html').send(page('download')); },
  }));
  routes.add('t_stream', new Route('/t/stream', {
    controller: (_req, res) => { res.type('html'); res.write('<html><body>'); res.end('streamed</body></html>'); },
  }));
  routes.add('t_no_body_tag', new Route('/t/fragment', {
    controller: (_req, res) => { res.type('html').send('<p>fragment</p>'); },
  }));
  routes.add('t_two_bodies', new Route('/t/two-bodies', {
    controller: (_req, res) => { res.type('html').send('<html><body><pre>&lt;/body&gt; </body></pre></BODY></html>'); },
  }));
  routes.add('t_csp', new Route('/t/csp', {
    controller: (_req, res) => {
      res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'self' 'nonce-abc123'; style-src 'self' 'nonce-def456'");
      res.type('html').send(page('csp'));
    },
  }));
  routes.add('t_ajax', new Route('/t/ajax', {
    // the page's own calls start on load, once the toolbar loader (end of body) wrapped fetch and XHR
    controller: (_req, res) => {
      res.type('html').send(page(`<h1>ajax</h1><script>
window.addEventListener('load', function () {
  fetch('/api/books').then(function (r) { return r.text(); }).then(function () {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', '/nope');
    xhr.onloadend = function () { document.body.setAttribute('data-done', '1'); };
    xhr.send();
  });
});
</script>`));
    },
  }));
  routes.add('t_session', new Route('/t/session', {
    controller: (req, res, next) => {
      // a new session id, as a login gives (the firewall's session migration), then data: stored
      req.session.regenerate((err: unknown) => {
        if (err !== undefined && err !== null) return next(err);
        (req.session as unknown as Record<string, unknown>).visited = true;
        res.json({ visited: true });
      });
    },
  }));
  routes.add('t_echo', new Route('/t/echo', {
    methods: ['POST'],
    controller: (req, res) => { res.json({ received: Object.keys((req.body as object | undefined) ?? {}) }); },
  }));
  return routes;
}

/** A debug kernel over {@link testRoutes}, with no optional layer. */
export function bareKernel(options: Partial<KernelOptions> = {}): Kernel {
  return createKernel({ routes: testRoutes(), debug: true, securityHeaders: false, ...options });
}

/**
 * A debug kernel over {@link testRoutes} with every layer: CORS on `^/api`, sessions in memory,
 * the `main` firewall (HTTP Basic, `admin`/`admin` with ROLE_ADMIN, `^/admin` → ROLE_ADMIN),
 * locale and time zone.
 */
export function layeredKernel(options: Partial<KernelOptions> = {}): Kernel {
  const provider = new InMemoryUserProvider({ users: { admin: { password: 'admin', roles: ['ROLE_ADMIN'] } } });
  return createKernel({
    routes: testRoutes(),
    debug: true,
    environment: 'test',
    secret: APP_SECRET,
    cors: { paths: { '^/api': { origins: ['http://app.example'], credentials: true } } },
    session: { store: 'memory' },
    security: {
      firewalls: [{ name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()] }],
      accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
    },
    locale: { defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de'] },
    timeZone: { default: 'UTC' },
    ...options,
  });
}

/** The token of a profiled response. */
export function tokenOf(res: request.Response): string {
  const token = res.headers['x-debug-token'] as string | undefined;
  if (token === undefined) throw new Error(`no X-Debug-Token on ${res.status} ${res.text.slice(0, 100)}`);
  return token;
}

/** The stored profile of a response. */
export async function storedProfile(kernel: Kernel, res: request.Response): Promise<Profile> {
  const profile = await kernel.profiler?.storage.read(tokenOf(res));
  if (profile === null || profile === undefined) throw new Error('profile not stored');
  return profile;
}

/** The four requests every panel must render for: a 404, a 405, a 200 and a 500. */
export const STATUS_CASES = [
  { status: 404, method: 'get', path: '/nope' },
  { status: 405, method: 'delete', path: '/api/books' },
  { status: 200, method: 'get', path: '/api/books' },
  { status: 500, method: 'get', path: '/boom' },
] as const;

/** Sends one of {@link STATUS_CASES}. */
export function send(kernel: Kernel, c: (typeof STATUS_CASES)[number]): request.Test {
  return c.method === 'get' ? request(kernel).get(c.path) : request(kernel).delete(c.path);
}

/**
 * A kernel made before the file's tests and closed after them.
 * @returns a getter for the kernel
 */
export function useKernel(make: () => Kernel = bareKernel): () => Kernel {
  let kernel: Kernel | undefined;
  beforeAll(() => { kernel = make(); });
  afterAll(async () => { await kernel?.close(); });
  return () => {
    if (kernel === undefined) throw new Error('the kernel is made in beforeAll');
    return kernel;
  };
}

/**
 * Every profiler page that shows the given profiles: search results, a comparison, and per
 * token the toolbar, the profile, its sub-pages and every panel.
 */
export function pageUrls(tokens: string[]): string[] {
  const urls = ['/_profiler/empty/search/results?limit=50', `/_profiler/${tokens[0]}/compare/${tokens[tokens.length - 1]}`];
  for (const token of tokens) {
    urls.push(`/_wdt/${token}`, `/_profiler/${token}`, `/_profiler/${token}/router`, `/_profiler/${token}/exception`);
    for (const panel of PANELS) urls.push(`/_profiler/${token}?panel=${panel}`);
  }
  return urls;
}
