import type { Request, Response } from 'express';
import { reasonPhrase } from '../http/ErrorRenderer';
import { isKernelError } from '../errors/KernelError';
import { baseOf, criteriaOf, loadProfile, PageHandler } from './pageSupport';
import type { ProfilerStorage } from './storage/ProfilerStorage';

/** Writes an RFC 9457 problem details response. */
function problem(res: Response, status: number, detail: string): void {
  const body = { type: 'about:blank', title: reasonPhrase(status), status, detail };
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/**
 * The profiler's JSON API, declared with `add` (name, path, handler):
 * - `GET /_profiler/api/profiles?ip=&method=&status=&url=&start=&end=&limit=`: summaries, newest
 *   first, each with `links.self` (this API) and `links.html` (the profile page); a filter that
 *   does not parse is a 400 problem;
 * - `GET /_profiler/api/profiles/{token}` (or `latest`): the whole profile, every collector's
 *   data; an unknown token is a 404 problem.
 */
export function addProfilerApiRoutes(
  add: (name: string, path: string, handler: PageHandler) => void,
  storage: ProfilerStorage,
): void {
  add('_profiler_api_profiles', '/_profiler/api/profiles', async (req: Request, res: Response) => {
    let criteria;
    try {
      criteria = criteriaOf(req.query, true);
    } catch (e) {
      if (isKernelError(e, 'ERR_PROFILER_INVALID_CRITERION')) return problem(res, e.status, e.message);
      throw e;
    }
    const base = baseOf(req);
    const profiles = (await storage.find(criteria)).map((s) => ({
      ...s,
      links: { self: `${base}/_profiler/api/profiles/${s.token}`, html: `${base}/_profiler/${s.token}` },
    }));
    res.type('application/json').send(JSON.stringify({ profiles }));
  });
  add('_profiler_api_profile', '/_profiler/api/profiles/{token}', async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const profile = await loadProfile(storage, token);
    if (profile === null) return problem(res, 404, `Token "${token}" not found.`);
    res.type('application/json').send(JSON.stringify(profile));
  });
}
