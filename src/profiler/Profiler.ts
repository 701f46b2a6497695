import type { Request, RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { exceptionChain } from '../http/ErrorRenderer';
import type { TrustFunction } from '../http/RequestUri';
import { KernelConfigError } from '../config/KernelConfigError';
import type { Profile } from './Profile';
import { builtInCollectors } from './collectors';
import { requestUrl } from './collectors/RequestCollector';
import type { DataCollector } from './collectors/DataCollector';
import { extraSecretFields, redactNamed, redactText } from './redaction';
import { createRequestLogger, LogBuffer, NULL_LOGGER, setRequestLog } from './requestLogger';
import type { ProfilerStorage } from './storage/ProfilerStorage';
import { Stopwatch } from './Stopwatch';
import type { TimeData } from './collectors/TimeCollector';
import { generateToken } from './token';
import { cspNonce, injectBeforeBodyEnd, wantsToolbar } from './toolbarInjection';
import { EndHook, installEndHook, type ResponseEnd } from './endHook';
import { PanelTemplate, panelTemplateOf } from './views';
import { CutTemplates } from '../http/CutTemplate';

/** Options of {@link Profiler}. */
export interface ProfilerOptions {
  storage: ProfilerStorage;
  /** Extra collectors, after the built-in ones; each name must be new. */
  collectors?: DataCollector[];
  /** The kernel's logger: the profiler's own warnings, and the parent of each request's `req.log`. */
  logger?: Logger;
  /** Path prefix of the profiler pages, relative to the base URL. @default '/_profiler' */
  path?: string;
  /** Inject the debug toolbar into HTML pages. @default true */
  toolbar?: boolean;
  /** The lowest pino level the Logs panel keeps, whatever the logger's own level. @default 'debug' */
  logLevel?: string;
  /**
   * Field names redacted on top of the built-in list (`DEFAULT_SECRET_FIELDS`): body and query
   * fields, session attributes, log context and headers of these names (case-insensitive) keep
   * their name and lose their value in every collector's data. @default []
   * @example ['iban', 'tax_id']
   */
  redactFields?: string[];
  /**
   * The application's root folder, absolute: the exception panel shows source excerpts only of
   * files under it or in a `node_modules` folder. @default process.cwd()
   */
  projectRoot?: string;
}

const COLLECTOR_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const snippets = new CutTemplates('profiler/toolbar/snippet.html.njk', 16);

/**
 * The profiler (Symfony `Profiler` + `ProfilerListener` + `WebDebugToolbarListener`): gives each
 * request a token, sets `X-Debug-Token` and `X-Debug-Token-Link`, gives the request a logger
 * (`req.log`) whose records the Logs panel shows, injects the toolbar loader into HTML pages,
 * runs the data collectors when the response is about to finish and writes the profile before
 * the last byte leaves, so neither the link nor the toolbar ever 404s. A store failure never
 * fails the request: the profile is dropped and a warning logged.
 */
export class Profiler {
  readonly storage: ProfilerStorage;
  private readonly extraSecrets: RegExp | null;
  /** See {@link ProfilerOptions.projectRoot}. */
  readonly projectRoot: string;
  /** Every collector, built-in ones first, in menu order. */
  readonly collectors: readonly DataCollector[];
  private readonly logger?: Logger;
  private readonly path: string;
  private readonly toolbar: boolean;
  private readonly logLevel: string;
  private readonly templates = new Map<string, PanelTemplate>();
  private toolbarClients: TrustFunction = () => true;

  /** @throws KernelConfigError for a collector without a valid name, a name used twice, or a missing template */
  constructor(options: ProfilerOptions) {
    this.storage = options.storage;
    this.logger = options.logger;
    this.path = options.path ?? '/_profiler';
    this.toolbar = options.toolbar ?? true;
    this.logLevel = options.logLevel ?? 'debug';
    this.extraSecrets = extraSecretFields(options.redactFields ?? []);
    this.projectRoot = options.projectRoot ?? process.cwd();
    this.collectors = [...builtInCollectors((req) => req.kernel!.logBuffer), ...(options.collectors ?? [])];
    for (const c of this.collectors) {
      if (typeof c.name !== 'string' || !COLLECTOR_NAME.test(c.name)) {
        throw new KernelConfigError('profiler.collectors', 'a collector\'s name must be letters, digits, "_" or "-", '
          + `starting with a letter (got ${JSON.stringify(c.name)}).`);
      }
      if (this.templates.has(c.name)) {
        const builtIn = builtInCollectors(() => undefined).map((b) => b.name).join(', ');
        throw new KernelConfigError('profiler.collectors',
          `two collectors are named "${c.name}"; rename one (built-in names: ${builtIn}).`);
      }
      try {
        this.templates.set(c.name, panelTemplateOf(c));
      } catch (e) {
        throw new KernelConfigError('profiler.collectors', (e as Error).message);
      }
    }
  }

  /** The collector called `name`, if registered. */
  collector(name: string): DataCollector | undefined {
    return this.collectors.find((c) => c.name === name);
  }

  /** The panel template of a registered collector. */
  panelTemplate(name: string): PanelTemplate | undefined {
    return this.templates.get(name);
  }

  /**
   * Injects the toolbar only for clients `allowed` accepts (those who may open the profiler
   * pages the toolbar loads). The profiler's routes call this with their own allowlist.
   */
  restrictToolbarTo(allowed: TrustFunction): void {
    this.toolbarClients = allowed;
  }

  /**
   * The middleware that starts profiling a request. Requests under the profiler's own paths are
   * not profiled.
   */
  middleware(): RequestHandler {
    const profilerPrefix = this.path + '/';
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a named function (not an arrow) for stack traces
    const self = this;
    return function profilerStart(req: Request, res: Response, next) {
      const pathInfo = req.kernel!.uri?.pathInfo ?? '/';
      if (pathInfo.startsWith(profilerPrefix) || pathInfo.startsWith('/_wdt/')) return next();
      // As Symfony's Profiler does, the token is not checked against the store: 24 random bits,
      // so with N profiles kept a new one replaces an older one with probability N / 2^24.
      const token = generateToken();
      req.kernel!.token = token;
      res.setHeader('X-Debug-Token', token);
      const uri = req.kernel!.uri;
      if (uri !== undefined) {
        res.setHeader('X-Debug-Token-Link', `${uri.schemeAndHttpHost}${uri.baseUrl}${self.path}/${token}`);
      }
      req.kernel!.makeLog = self.makeLog;
      req.stopwatch = new Stopwatch(req.kernel!.startedAt, req.kernel!.timeline);
      // a logger set before the kernel (pino-http in a parent app) is replaced at once by the profiler's
      if (Object.prototype.hasOwnProperty.call(req, 'log')) setRequestLog(req, self.makeLog(req));
      self.hookEnd(req, res);
      next();
    };
  }

  /** Makes a profiled request's `req.log` (on first use) and the buffer the Logs panel reads. */
  private readonly makeLog = (req: Request): Logger => {
    const buffer = new LogBuffer();
    req.kernel!.logBuffer = buffer;
    return createRequestLogger(this.logger ?? NULL_LOGGER, req.kernel!.token ?? '', buffer, this.logLevel);
  };

  /**
   * Wraps `res.end`: injects the toolbar loader into an HTML page, collects the profile, stores
   * it, then lets the response finish. The wrapper stays the outermost one: a layer that wraps
   * `res.end` later (express-session, which, to touch or save the session, writes all of a body
   * but its last byte before ending) is called from it after the injection, so it gets the page
   * with the toolbar rather than handing the profiler its last byte; the profile is collected
   * when the real `end` comes, after them (the session's `Set-Cookie` is in it).
   */
  private hookEnd(req: Request, res: Response): void {
    const originalEnd = res.end.bind(res) as ResponseEnd;
    let passed = 0;
    let done = false;
    const hook: EndHook = new EndHook((...args): Response => {
      let endArgs = args;
      if (!hook.ending) {
        hook.ending = true;
        try {
          if (this.toolbar && wantsToolbar(req, res) && this.toolbarClients(req.kernel!.uri?.clientIp ?? '', 0)) {
            endArgs = injectBeforeBodyEnd(res, args, this.toolbarSnippet(req, res));
          }
        } catch (e) {
          this.logger?.warn({ err: e }, 'profiler toolbar injection failed');
        }
      }
      // through the later wrappers, newest first: each ends by calling what it saw as `res.end` (this one)
      const later = hook.later;
      const next = later[later.length - 1 - passed];
      if (next !== undefined) {
        passed++;
        return next.apply(res, endArgs);
      }
      if (done) return originalEnd(...endArgs);
      done = true;
      return this.profileThenEnd(req, res, originalEnd, endArgs);
    });
    // A wrapper set once the response is ending (a session loaded late) is not part of this end:
    // `res.end` becomes that wrapper, as a plain property, as it would without this hook.
    installEndHook(res, hook);
  }

  /** Collects and stores the profile, then ends the response (once stored, unless writes show at once). */
  private profileThenEnd(
    req: Request, res: Response, originalEnd: ResponseEnd, endArgs: unknown[],
  ): Response {
    let profile: Profile | undefined;
    try {
      profile = this.collect(req, res);
    } catch (e) {
      this.logger?.warn({ err: e }, 'profiler failed; profile dropped');
    }
    if (profile === undefined) return originalEnd(...endArgs);
    const token = profile.token;
    const failed = (e: unknown): void => {
      this.logger?.warn({ err: e, token }, 'profiler storage failed; profile dropped');
    };
    let written: Promise<void>;
    try {
      written = this.storage.write(profile);
    } catch (e) {
      written = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    // the profile is there before the last byte: in the store at once, or once written
    if (this.storage.writesVisibleAtOnce === true) {
      written.catch(failed);
      return originalEnd(...endArgs);
    }
    written.then(() => originalEnd(...endArgs), (e: unknown) => {
      failed(e);
      originalEnd(...endArgs);
    });
    return res;
  }

  /**
   * The HTML put before `</body>`: a placeholder and the script that fetches `/_wdt/<token>` into
   * it (`profiler/toolbar/snippet.html.njk`, cut once: see {@link CutTemplates}).
   */
  private toolbarSnippet(req: Request, res: Response): string {
    const state = req.kernel!;
    const values = [state.token ?? '', state.uri?.baseUrl ?? '', cspNonce(res, 'script-src') ?? '',
      cspNonce(res, 'style-src') ?? ''];
    return snippets.render('', ([token, base, scriptNonce, styleNonce]) => ({ token, base, scriptNonce, styleNonce }),
      values);
  }

  /** Builds the profile of a finished request; a collector that throws is logged and left out. */
  collect(req: Request, res: Response): Profile {
    const error = req.kernel!.error;
    const stopwatch = req.stopwatch as Stopwatch | undefined;
    stopwatch?.start('profiler.collect', 'profiler');
    const collectors: Record<string, unknown> = {};
    for (const c of this.collectors) {
      try {
        collectors[c.name] = c.collect(req, res, error);
      } catch (e) {
        this.logger?.warn({ err: e, collector: c.name }, 'profiler collector failed; its data is left out');
      }
    }
    // the Performance panel was collected while this ran: give its span its real end
    const collected = stopwatch?.stop('profiler.collect');
    const time = collectors.time as TimeData | undefined;
    const span = time?.events.find((e) => e.name === 'profiler.collect' && e.category === 'profiler');
    if (span !== undefined && collected?.end !== undefined) span.end = Math.round(collected.end * 1000) / 1000;
    const uri = req.kernel!.uri;
    const profile: Profile = {
      token: req.kernel!.token ?? '',
      ip: uri?.clientIp ?? req.socket.remoteAddress ?? '',
      method: req.kernel!.method,
      url: requestUrl(req),
      time: Date.now() - Math.round(performance.now() - req.kernel!.startedAt),
      statusCode: res.statusCode,
      route: req.kernel!.route,
      exception: error === undefined
        ? undefined
        : exceptionChain(error).map(({ stack: _stack, ...e }) => ({ ...e, message: redactText(e.message) })),
      collectors,
    };
    return this.extraSecrets === null ? profile : (redactNamed(profile, this.extraSecrets) as Profile);
  }
}
