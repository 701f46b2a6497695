import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type {} from 'express-session';
import { parse as parseCookie } from 'cookie';
import { existingSession } from '../session/previousSession';
import { BadRequestHttpError } from '../http/errors';
import { resolveTimeZoneOptions, type TimeZoneOptions } from './options';
import { headerText } from '../http/headerText';
import { canonicalTimeZone } from './timeZones';
import { defineRequestSlot } from '../http/requestSlots';

export { resolveTimeZoneOptions } from './options';
export type { ResolvedTimeZoneOptions, TimeZoneOptions } from './options';

/** Where a request's time zone came from, in order of precedence. */
export type TimeZoneSource = 'user' | 'session' | 'header' | 'cookie' | 'default';

/** What the time zone layer decided, kept on `req.timeZoneInfo` for the profiler. */
export interface TimeZoneInfo {
  /**
   * The IANA name as the source gave it, case-normalised: `Europe/Paris`, `Asia/Kolkata` (kept, though
   * Node 20's ICU lists `Asia/Calcutta`), `asia/kolkata` → `Asia/Kolkata`.
   */
  readonly timeZone: string;
  readonly source: TimeZoneSource;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's IANA time zone, set by {@link timeZoneLayer} (undefined without that layer). */
    timeZone?: string;
    /** How {@link timeZoneLayer} chose `req.timeZone`. */
    timeZoneInfo?: TimeZoneInfo;
  }
}
defineRequestSlot('timeZone');
defineRequestSlot('timeZoneInfo');

declare module 'express-session' {
  interface SessionData {
    /** The user's IANA time zone, read by {@link timeZoneLayer}. */
    timeZone?: string;
  }
}

/**
 * The value of cookie `name` in a `Cookie` header (the first one sent), percent-decoded by the
 * `cookie` package (a value that does not decode stays as sent) and without the double quotes
 * RFC 6265 allows around it; undefined when absent.
 */
function cookieValue(header: string | undefined, name: string): string | undefined {
  return header === undefined ? undefined : parseCookie(header)[name]?.replace(/^"(.*)"$/, '$1');
}

/**
 * The time zone layer: sets `req.timeZone` (an IANA name) and `req.timeZoneInfo` from, in order,
 * 1. the user's preference (`options.userPreference(req)`, e.g. `req.user?.timeZone`),
 * 2. the session (`req.session.timeZone`, when a session layer runs; never creates a session),
 * 3. the `Time-Zone` request header: a non-standard header carrying one IANA time zone name
 *    (a zone or a link of the IANA database, in any case), or `UTC` (e.g. `Time-Zone: Europe/Paris`);
 *    a browser client sends `Intl.DateTimeFormat().resolvedOptions().timeZone`,
 * 4. the `tz` cookie (see `cookieName`),
 * 5. the default.
 * Every value is checked with {@link canonicalTimeZone}: `req.timeZone` is the name the source
 * gave, spelled as IANA spells it (`asia/kolkata` → `Asia/Kolkata`, never renamed to ICU's
 * `Asia/Calcutta`). Invalid values from the user, the session and the cookie are ignored; an invalid
 * `Time-Zone` header is a client error whichever source wins.
 * @param options - see {@link TimeZoneOptions}; validated here, once
 * @returns the layer, for `createKernel({ layers: { 'time-zone': … } })`
 * @throws KernelConfigError for a bad option, at construction
 * @remarks Per request it passes `next(BadRequestHttpError)`: 400
 *   `Invalid time zone "<value>" in the Time-Zone header.`
 */
export function timeZoneLayer(options: TimeZoneOptions = {}): RequestHandler {
  const o = resolveTimeZoneOptions(options);
  const infos = new Map<string, TimeZoneInfo>();
  /** The frozen info of a zone and source, made once (a few hundred zones at most). */
  const infoOf = (timeZone: string, source: TimeZoneSource): TimeZoneInfo => {
    const key = `${source} ${timeZone}`;
    let info = infos.get(key);
    if (info === undefined) infos.set(key, (info = Object.freeze({ timeZone, source })));
    return info;
  };
  return function timeZone(req: Request, _res: Response, next: NextFunction) {
    const raw = req.headers['time-zone'];
    const header = raw === undefined ? '' : headerText(raw).trim();
    const fromHeader = header === '' ? undefined : canonicalTimeZone(header);
    if (header !== '' && fromHeader === undefined) {
      return next(new BadRequestHttpError(`Invalid time zone "${header}" in the Time-Zone header.`));
    }
    // the first valid source wins; later ones are not even read
    let info: TimeZoneInfo | undefined;
    const preferred = o.userPreference === undefined ? undefined : canonicalTimeZone(o.userPreference(req));
    if (preferred !== undefined) info = infoOf(preferred, 'user');
    if (info === undefined) {
      const stored = canonicalTimeZone(existingSession(req)?.timeZone);
      if (stored !== undefined) info = infoOf(stored, 'session');
    }
    if (info === undefined && fromHeader !== undefined) info = infoOf(fromHeader, 'header');
    if (info === undefined && req.headers.cookie !== undefined) {
      const cookie = canonicalTimeZone(cookieValue(req.headers.cookie, o.cookieName));
      if (cookie !== undefined) info = infoOf(cookie, 'cookie');
    }
    info ??= infoOf(o.default, 'default');
    req.timeZone = info.timeZone;
    req.timeZoneInfo = info;
    next();
  };
}
