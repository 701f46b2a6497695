import type { Request, Response } from 'express';
import { NotFoundHttpError } from '../http/errors';
import { formatMessage } from '../errors/codes';
import { render } from '../http/templates';
import { Route } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';
import { TraceableUrlMatcher, TraceLevel } from '../routing/matcher/TraceableUrlMatcher';
import type { Profile, ProfileCriteria } from './Profile';
import type { Profiler } from './Profiler';
import type { RouterData } from './collectors/RouterCollector';
import type { TrustFunction } from '../http/RequestUri';

/** The panels every profile offers, in menu order (id → label). */
export const PANELS: ReadonlyArray<readonly [string, string]> = [
  ['request', 'Request / Response'],
  ['time', 'Performance'],
  ['exception', 'Exception'],
  ['router', 'Routing'],
];

/** Options of {@link createProfilerRoutes}. */
export interface ProfilerRoutesOptions {
  profiler: Profiler;
  /** The application's routing table, replayed by the routing panel. */
  routes: RouteCollection;
  /** Which client IPs may see the pages. */
  allowed: TrustFunction;
}

function baseOf(req: Request): string {
  return req.kernel.uri?.baseUrl ?? '';
}

function criteriaOf(query: Request['query']): ProfileCriteria {
  const str = (k: string): string | undefined => (typeof query[k] === 'string' && query[k] !== '' ? (query[k] as string) : undefined);
  const limit = Number.parseInt(str('limit') ?? '10', 10);
  const status = str('status');
  const start = str('start');
  const end = str('end');
  return {
    ip: str('ip'), method: str('method'), url: str('url'),
    statusCode: status === undefined ? undefined : Number.parseInt(status, 10) || undefined,
    start: start === undefined ? undefined : Date.parse(start) || undefined,
    end: end === undefined ? undefined : Date.parse(end) || undefined,
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, 1000) : 10,
  };
}

/**
 * The profiler pages as routes of the routing table, as WebProfilerBundle's `profiler.xml` and
 * `wdt.xml` declare them (any method). Only clients that `allowed` accepts see them; others get
 * the same 404 as a path with no route.
 */
export function createProfilerRoutes(options: ProfilerRoutesOptions): RouteCollection {
  const { profiler, allowed } = options;
  const storage = profiler.storage;
  const routes = new RouteCollection();

  const guard = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    const uri = req.kernel.uri;
    if (uri === undefined || !allowed(uri.clientIp, 0)) {
      throw new NotFoundHttpError(formatMessage('ERR_HTTP_NOT_FOUND', req.kernel.method, `${uri?.schemeAndHttpHost ?? ''}${uri?.baseUrl ?? ''}${uri?.pathInfo ?? ''}`));
    }
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Cache-Control', 'no-cache, private');
    await handler(req, res);
  };
  const load = async (token: string): Promise<Profile | null> => {
    if (token === 'latest') {
      const [newest] = await storage.find({ limit: 1 });
      return newest === undefined ? null : storage.read(newest.token);
    }
    return storage.read(token);
  };

  routes.add('_wdt', new Route('/_wdt/{token}', {
    controller: guard(async (req, res) => {
      const token = String(req.params.token);
      if (token === 'empty') { res.type('html').send(''); return; }
      const profile = await load(token);
      if (profile === null) { res.status(404).type('html').send(''); return; }
      res.type('html').send(render('profiler/toolbar.html.njk', { p: profile, base: baseOf(req) }));
    }),
  }));
  routes.add('_profiler_home', new Route('/_profiler/', {
    controller: guard(async (req, res) => { res.redirect(302, `${baseOf(req)}/_profiler/empty/search/results?limit=10`); }),
  }));
  routes.add('_profiler_search', new Route('/_profiler/search', {
    controller: guard(async (req, res) => {
      const [newest] = await storage.find({ ...criteriaOf(req.query), limit: 1 });
      const qs = req.kernel.uri?.queryString ?? '';
      res.redirect(302, `${baseOf(req)}/_profiler/${newest?.token ?? 'empty'}/search/results${qs ? '?' + qs : ''}`);
    }),
  }));
  routes.add('_profiler_search_results', new Route('/_profiler/{token}/search/results', {
    controller: guard(async (req, res) => {
      const criteria = criteriaOf(req.query);
      const results = await storage.find(criteria);
      res.type('html').send(render('profiler/search.html.njk', { results, criteria, base: baseOf(req), query: req.query }));
    }),
  }));
  routes.add('_profiler', new Route('/_profiler/{token}', {
    controller: guard(async (req, res) => {
      const token = String(req.params.token);
      const profile = await load(token);
      if (profile === null) {
        res.type('html').send(render('profiler/not_found.html.njk', { token, base: baseOf(req) }));
        return;
      }
      const requested = typeof req.query.panel === 'string' ? req.query.panel : undefined;
      const panel = requested ?? (profile.exception !== undefined ? 'exception' : 'request');
      if (!PANELS.some(([id]) => id === panel) && profiler.collector(panel) === undefined) {
        throw new NotFoundHttpError(formatMessage('ERR_PROFILER_PANEL_NOT_FOUND', panel, profile.token));
      }
      res.type('html').send(render('profiler/profile.html.njk', {
        p: profile, panel, panels: PANELS, base: baseOf(req),
        traces: panel === 'router' ? tracesOf(options.routes, profile) : [],
        data: profile.collectors[panel],
      }));
    }),
  }));
  routes.add('_profiler_router', new Route('/_profiler/{token}/router', {
    controller: guard(async (req, res) => {
      const profile = await load(String(req.params.token));
      if (profile === null) throw new NotFoundHttpError(`Token "${String(req.params.token)}" not found.`);
      res.type('html').send(render('profiler/panels/router.html.njk', { p: profile, traces: tracesOf(options.routes, profile), data: profile.collectors.router }));
    }),
  }));
  routes.add('_profiler_exception', new Route('/_profiler/{token}/exception', {
    controller: guard(async (req, res) => {
      const profile = await load(String(req.params.token));
      if (profile === null) throw new NotFoundHttpError(`Token "${String(req.params.token)}" not found.`);
      res.type('html').send(render('profiler/panels/exception.html.njk', { p: profile }));
    }),
  }));
  return routes;
}

/** Replays a profile's request through the traceable matcher (the routing panel's log). */
export function tracesOf(routes: RouteCollection, profile: Profile): Array<{ name: string; path: string; log: string; level: string }> {
  const data = profile.collectors.router as RouterData | undefined;
  if (data === undefined) return [];
  return new TraceableUrlMatcher(routes).getTraces(data.pathInfo, { method: data.method, host: data.host, scheme: data.scheme }).map((t) => ({
    name: t.name, path: t.path,
    log: t.level === TraceLevel.ROUTE_ALMOST_MATCHES ? `Path almost matches, but ${t.log}` : t.log,
    level: TraceLevel[t.level],
  }));
}
