import type { ExceptionData } from '../http/ErrorRenderer';

/**
 * What the profiler stores for one request (Symfony `Profile`): the index fields, searchable in
 * every store, plus each data collector's data under its name.
 */
export interface Profile {
  /** 6 lowercase hex characters. */
  token: string;
  /** Token of the parent request, for sub-requests. */
  parent?: string;
  /** Client IP (the first untrusted hop). */
  ip: string;
  method: string;
  /** Absolute URL, query included. */
  url: string;
  /** When the request started, in ms since the epoch. */
  time: number;
  /** The response status. */
  statusCode: number;
  /** Matched route name, when one matched (a redirect records the target route). */
  route?: string;
  /**
   * The exception and its cause chain, outermost first, when one was thrown: class, message,
   * status and throwing file and line; the parsed stacks are the exception collector's.
   */
  exception?: ProfileException[];
  /** Data collectors' data, by collector name. */
  collectors: Record<string, unknown>;
}

/** One error of a profile's cause chain, without its stack (the exception collector keeps the frames). */
export type ProfileException = Omit<ExceptionData, 'stack'>;

/** The summary a search returns (Symfony's `index.csv` columns). */
export type ProfileSummary =
  Pick<Profile, 'token' | 'parent' | 'ip' | 'method' | 'url' | 'time' | 'statusCode' | 'route'>;

/** Search filters (Symfony profiler search). All optional; `ip` and `url` match as substrings, `method` exactly. */
export interface ProfileCriteria {
  ip?: string;
  method?: string;
  url?: string;
  statusCode?: number;
  /** Earliest start time, ms since the epoch. */
  start?: number;
  /** Latest start time, ms since the epoch. */
  end?: number;
  /** How many results at most. @default 10 */
  limit?: number;
}
