import type { Request, Response } from 'express';
import { formatMessage } from '../errors/codes';
import { NotFoundHttpError } from '../http/errors';
import type { TrustFunction } from '../http/RequestUri';
import { Route } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';
import { TraceableUrlMatcher, TraceLevel } from '../routing/matcher/TraceableUrlMatcher';
import type { Profile } from './Profile';
import type { Profiler } from './Profiler';
import { addProfilerApiRoutes } from './ProfilerApi';
import type { CollectorSummary, DataCollector } from './collectors/DataCollector';
import { labelOf } from './collectors/DataCollector';
import { withExcerptsData } from './collectors/ExceptionCollector';
import { LOG_LEVELS, LoggerData, recordsFrom } from './collectors/LoggerCollector';
import type { RouterData } from './collectors/RouterCollector';
import { TimeData, waterfall } from './collectors/TimeCollector';
import { compareProfiles } from './compare';
import { baseOf, criteriaOf, guarded, loadProfile, PageHandler } from './pageSupport';
import { profilerAsset, renderPanel, renderView } from './views';

/** Options of {@link createProfilerRoutes}. */
export interface ProfilerRoutesOptions {
  profiler: Profiler;
  /** The application's routing table, replayed by the routing panel. */
  routes: RouteCollection;
  /** Which client IPs may see the pages (and get the toolbar). */
  allowed: TrustFunction;
}

/** One menu entry or toolbar block. */
export interface PanelLink {
  name: string;
  label: string;
  summary: CollectorSummary;
}

const NO_DATA: CollectorSummary = { text: '', status: 'disabled' };

/** A collector's summary of stored data; a collector that throws or has no data shows as disabled. */
function summaryOf(collector: DataCollector, data: unknown): CollectorSummary {
  if (data === undefined) return NO_DATA;
  try {
    return collector.summary?.(data) ?? { text: '' };
  } catch {
    return NO_DATA;
  }
}

/** The panel menu of a profile, in collector order. */
export function menuOf(profiler: Profiler, profile: Profile): PanelLink[] {
  return profiler.collectors.map((c) => ({
    name: c.name, label: labelOf(c), summary: summaryOf(c, profile.collectors[c.name]),
  }));
}

/** Replays a profile's request through the traceable matcher (the routing panel's log). */
export function tracesOf(
  routes: RouteCollection,
  profile: Profile,
): Array<{ name: string; path: string; log: string; level: string }> {
  const data = profile.collectors.router as RouterData | undefined;
  if (data === undefined) return [];
  const context = { method: data.method, host: data.host, scheme: data.scheme };
  return new TraceableUrlMatcher(routes).getTraces(data.pathInfo, context).map((t) => ({
    name: t.name, path: t.path,
    log: t.level === TraceLevel.ROUTE_ALMOST_MATCHES ? `Path almost matches, but ${t.log}` : t.log,
    level: TraceLevel[t.level],
  }));
}

/**
 * The profiler pages as routes of the routing table, as WebProfilerBundle's `wdt.xml` and
 * `profiler.xml` declare them (any method), plus the toolbar's script and stylesheet, the JSON
 * API and the compare view. Only clients that `allowed` accepts see them; others get the same
 * 404 as a path with no route. There is no route that opens files and no environment dump.
 */
export function createProfilerRoutes(options: ProfilerRoutesOptions): RouteCollection {
  const { profiler, allowed } = options;
  const storage = profiler.storage;
  const page = guarded(allowed);
  const routes = new RouteCollection();
  const add = (name: string, path: string, handler: PageHandler): void => {
    routes.add(name, new Route(path, { controller: page(handler) }));
  };
  profiler.restrictToolbarTo(allowed);

  const panelContext = (req: Request, profile: Profile, collector: DataCollector): Record<string, unknown> => {
    const stored = profile.collectors[collector.name];
    // the exception panel reads its source excerpts now, as Symfony's does (profiles hold none)
    const data = collector.name === 'exception' ? withExcerptsData(stored, profiler.projectRoot) : stored;
    const context: Record<string, unknown> = {
      p: profile,
      data,
      collector: { name: collector.name, label: labelOf(collector) },
      base: baseOf(req),
      query: req.query,
    };
    if (collector.name === 'router') context.traces = tracesOf(options.routes, profile);
    if (collector.name === 'time') context.bars = waterfall(data as TimeData | undefined);
    if (collector.name === 'logger') {
      const level = typeof req.query.level === 'string' && LOG_LEVELS.some(([n]) => n === req.query.level)
        ? req.query.level
        : '';
      const records = recordsFrom((data as LoggerData | undefined)?.records ?? [], level);
      Object.assign(context, { levels: LOG_LEVELS, level, records });
    }
    return context;
  };
  const panelHtml = (req: Request, profile: Profile, name: string): string => {
    const collector = profiler.collector(name);
    const template = profiler.panelTemplate(name);
    if (collector === undefined || template === undefined) {
      const message = formatMessage('ERR_PROFILER_PANEL_NOT_FOUND', name, profile.token);
      throw new NotFoundHttpError(message, {}, 'ERR_PROFILER_PANEL_NOT_FOUND');
    }
    return renderPanel(template, panelContext(req, profile, collector));
  };
  const notFound = (req: Request, res: Response, token: string): void => {
    res.type('html').send(renderView('profiler/not_found.html.njk', { token, base: baseOf(req) }));
  };

  add('_wdt_script', '/_wdt/toolbar.js', async (_req, res) => {
    res.type('text/javascript; charset=utf-8').send(profilerAsset('toolbar.js'));
  });
  add('_wdt_stylesheet', '/_wdt/styles.css', async (_req, res) => {
    res.type('text/css; charset=utf-8').send(profilerAsset('toolbar.css'));
  });
  add('_wdt', '/_wdt/{token}', async (req, res) => {
    const token = String(req.params.token);
    if (token === 'empty') { res.type('html').send(''); return; }
    const profile = await loadProfile(storage, token);
    if (profile === null) { res.status(404).type('html').send(''); return; }
    const blocks = menuOf(profiler, profile).filter((b) => b.summary.status !== 'disabled' && b.summary.text !== '');
    res.type('html').send(renderView('profiler/toolbar.html.njk', { p: profile, blocks, base: baseOf(req) }));
  });
  add('_profiler_home', '/_profiler/', async (req, res) => {
    res.redirect(302, `${baseOf(req)}/_profiler/empty/search/results?limit=10`);
  });
  add('_profiler_search', '/_profiler/search', async (req, res) => {
    const qs = req.kernel!.uri?.queryString ?? '';
    if (typeof req.query.token === 'string' && req.query.token !== '') {
      res.redirect(302, `${baseOf(req)}/_profiler/${encodeURIComponent(req.query.token)}`);
      return;
    }
    const [newest] = await storage.find({ ...criteriaOf(req.query, false), limit: 1 });
    res.redirect(302, `${baseOf(req)}/_profiler/${newest?.token ?? 'empty'}/search/results${qs ? '?' + qs : ''}`);
  });
  addProfilerApiRoutes(add, storage);
  add('_profiler_search_results', '/_profiler/{token}/search/results', async (req, res) => {
    const criteria = criteriaOf(req.query, false);
    const results = await storage.find(criteria);
    res.type('html').send(renderView('profiler/search.html.njk', {
      results, criteria, base: baseOf(req), query: req.query,
    }));
  });
  add('_profiler', '/_profiler/{token}', async (req, res) => {
    const token = String(req.params.token);
    const profile = await loadProfile(storage, token);
    if (profile === null) return notFound(req, res, token);
    const requested = typeof req.query.panel === 'string' ? req.query.panel : undefined;
    const panel = requested ?? (profile.exception !== undefined ? 'exception' : 'request');
    const html = panelHtml(req, profile, panel);
    res.type('html').send(renderView('profiler/profile.html.njk', {
      p: profile, panel, menu: menuOf(profiler, profile), base: baseOf(req), panelHtml: html,
    }));
  });
  add('_profiler_router', '/_profiler/{token}/router', async (req, res) => {
    const profile = await loadProfile(storage, String(req.params.token));
    if (profile === null) throw new NotFoundHttpError(`Token "${String(req.params.token)}" not found.`);
    res.type('html').send(panelHtml(req, profile, 'router'));
  });
  add('_profiler_exception', '/_profiler/{token}/exception', async (req, res) => {
    const profile = await loadProfile(storage, String(req.params.token));
    if (profile === null) throw new NotFoundHttpError(`Token "${String(req.params.token)}" not found.`);
    res.type('html').send(panelHtml(req, profile, 'exception'));
  });
  add('_profiler_exception_css', '/_profiler/{token}/exception.css', async (_req, res) => {
    res.type('text/css; charset=utf-8').send(profilerAsset('exception.css'));
  });
  add('_profiler_compare', '/_profiler/{token}/compare/{other}', async (req, res) => {
    const [a, b] = await Promise.all([
      loadProfile(storage, String(req.params.token)),
      loadProfile(storage, String(req.params.other)),
    ]);
    if (a === null) return notFound(req, res, String(req.params.token));
    if (b === null) return notFound(req, res, String(req.params.other));
    res.type('html').send(renderView('profiler/compare.html.njk', {
      a, b, comparison: compareProfiles(a, b), base: baseOf(req),
    }));
  });
  return routes;
}
