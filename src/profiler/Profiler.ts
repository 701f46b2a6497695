import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { exceptionChain } from '../http/ErrorRenderer';
import type { Profile } from './Profile';
import type { DataCollector } from './collectors/DataCollector';
import { MemoryCollector } from './collectors/MemoryCollector';
import { RequestCollector } from './collectors/RequestCollector';
import { RouterCollector } from './collectors/RouterCollector';
import { TimeCollector } from './collectors/TimeCollector';
import type { ProfilerStorage } from './storage/ProfilerStorage';
import { generateToken } from './token';

/** Options of {@link Profiler}. */
export interface ProfilerOptions {
  storage: ProfilerStorage;
  /** Extra collectors, after the built-in ones. */
  collectors?: DataCollector[];
  logger?: Logger;
  /** Path prefix of the profiler pages, relative to the base URL. @default '/_profiler' */
  path?: string;
}

/**
 * The profiler (Symfony `Profiler` + `ProfilerListener`): gives each request a token, sets
 * `X-Debug-Token` and `X-Debug-Token-Link`, runs the data collectors when the response is about
 * to finish and writes the profile before the last byte leaves, so the link never 404s. A store
 * failure never fails the request: the profile is dropped and a warning logged.
 */
export class Profiler {
  readonly storage: ProfilerStorage;
  readonly collectors: DataCollector[];
  private readonly logger?: Logger;
  private readonly path: string;

  constructor(options: ProfilerOptions) {
    this.storage = options.storage;
    this.logger = options.logger;
    this.path = options.path ?? '/_profiler';
    this.collectors = [new RequestCollector(), new TimeCollector(), new MemoryCollector(), new RouterCollector(), ...(options.collectors ?? [])];
    const names = new Set<string>();
    for (const c of this.collectors) {
      if (names.has(c.name)) throw new Error(`Invalid option "profiler.collectors": two collectors are named "${c.name}".`);
      names.add(c.name);
    }
  }

  /** The collector called `name`, if registered. */
  collector(name: string): DataCollector | undefined {
    return this.collectors.find((c) => c.name === name);
  }

  /**
   * The middleware that starts profiling a request. Requests under the profiler's own paths are
   * not profiled.
   */
  middleware(): RequestHandler {
    const profilerPrefix = this.path + '/';
    const self = this; // eslint-disable-line @typescript-eslint/no-this-alias
    return async function profilerStart(req: Request, res: Response, next) {
      const pathInfo = req.kernel.uri?.pathInfo ?? '/';
      if (pathInfo.startsWith(profilerPrefix) || pathInfo.startsWith('/_wdt/')) return next();
      let token: string;
      try {
        token = generateToken();
        if (await self.storage.has(token)) token = generateToken();
      } catch (e) {
        self.logger?.warn({ err: e }, 'profiler storage failed; request not profiled');
        return next();
      }
      req.kernel.token = token;
      res.setHeader('X-Debug-Token', token);
      const uri = req.kernel.uri;
      if (uri !== undefined) res.setHeader('X-Debug-Token-Link', `${uri.schemeAndHttpHost}${uri.baseUrl}${self.path}/${token}`);
      self.hookEnd(req, res);
      next();
    };
  }

  /** Collects and stores the profile when `res.end` is called, then lets the response finish. */
  private hookEnd(req: Request, res: Response): void {
    const originalEnd = res.end.bind(res) as (...args: unknown[]) => Response;
    let done = false;
    (res as unknown as { end: (...args: unknown[]) => Response }).end = (...args: unknown[]) => {
      if (done) return originalEnd(...args);
      done = true;
      let profile: Profile | undefined;
      try {
        profile = this.collect(req, res);
      } catch (e) {
        this.logger?.warn({ err: e }, 'profiler collector failed; profile dropped');
      }
      if (profile === undefined) return originalEnd(...args);
      this.storage.write(profile).then(
        () => originalEnd(...args),
        (e: unknown) => {
          this.logger?.warn({ err: e, token: profile?.token }, 'profiler storage failed; profile dropped');
          originalEnd(...args);
        },
      );
      return res;
    };
  }

  /** Builds the profile of a finished request. */
  collect(req: Request, res: Response): Profile {
    const error = req.kernel.error;
    const collectors: Record<string, unknown> = {};
    for (const c of this.collectors) collectors[c.name] = c.collect(req, res, error);
    const uri = req.kernel.uri;
    const url = uri === undefined ? req.originalUrl : `${uri.schemeAndHttpHost}${uri.baseUrl}${uri.pathInfo}${uri.queryString ? '?' + uri.queryString : ''}`;
    return {
      token: req.kernel.token ?? '',
      ip: uri?.clientIp ?? req.socket.remoteAddress ?? '',
      method: req.kernel.method,
      url,
      time: Date.now() - Math.round(performanceNow() - req.kernel.startedAt),
      statusCode: res.statusCode,
      route: req.kernel.route,
      exception: error === undefined ? undefined : exceptionChain(error),
      collectors,
    };
  }
}

function performanceNow(): number {
  return performance.now();
}
