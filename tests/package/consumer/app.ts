/**
 * A host application, as a user writes it: compiled by tests/package/pack.test.ts against the
 * installed tarball with `strict: true` and `skipLibCheck: false`, next to pino-http.
 * It is not part of this repository's own type check (tsconfig.json excludes this folder).
 */
import express, { type Request, type Response } from 'express';
import pinoHttp from 'pino-http';
import {
  createKernel, HttpError, NotFoundHttpError, Route, RouteCollection, UrlGenerator, createRequestContext,
  type Kernel,
} from 'express-kernel';
import { UrlMatcher, ReferenceType, ResourceNotFoundError } from 'express-kernel/routing';
import { firewall, HttpBasicAuthenticator, InMemoryUserProvider, type SecurityUser } from 'express-kernel/security';
import { existingSession, sessionLayer, type SessionOptions } from 'express-kernel/session';
import { MemoryProfilerStorage, type ProfilerStorage } from 'express-kernel/profiler';
import { profileOf, type TypedProfile } from 'express-kernel/testing';
import { createDemoRoutes } from 'express-kernel/demo';

function show(req: Request, res: Response): void {
  // pino-http's req.log: typed by pino-http, filled by the kernel's profiler on profiled requests
  req.log.info({ name: req.params.name }, 'hello');
  // the kernel's own request state is optional: absent outside a kernel
  const route: string | undefined = req.kernel?.route;
  const locale: string | undefined = req.locale;
  const user: SecurityUser | undefined = req.user;
  res.json({ hello: req.params.name, route, locale, zone: req.timeZone ?? 'UTC', user: user?.identifier ?? null });
}

const routes = new RouteCollection();
routes.add('hello', new Route('/hello/{name}', {
  methods: ['GET'], requirements: { name: '[a-z]+' }, controller: show,
}));
const kernel: Kernel = createKernel({ routes, debug: true, profiler: { storage: new MemoryProfilerStorage(10) } });

const context = createRequestContext({ host: 'example.com' });
const generator = new UrlGenerator(routes, context);
const url: string = generator.generate('hello', { name: 'ada' }, ReferenceType.ABSOLUTE_URL);
const matched: string = new UrlMatcher(routes).match('/hello/ada', context).route;
const notFound: boolean = new ResourceNotFoundError('nope') instanceof Error;
const httpError: HttpError = new NotFoundHttpError('nope');

const sessionOptions: SessionOptions = { secret: 'a'.repeat(32), store: 'memory', environment: 'test' };
const users = new InMemoryUserProvider({ users: { ada: { password: 'secret', roles: ['ROLE_USER'] } } });
const guard = firewall({
  firewalls: [{ name: 'main', pattern: '^/', provider: users, authenticators: [new HttpBasicAuthenticator()] }],
});

const app = express();
app.use(pinoHttp());
app.use('/kernel', kernel);
app.use('/other', sessionLayer(sessionOptions), guard, (req: Request, res: Response) => {
  req.log.warn('outside the kernel');
  res.json({ session: existingSession(req) !== undefined, kernel: req.kernel === undefined });
});

/**
 * The messages the profile of a response's token shows in its Logs panel.
 * @param headers - the response's headers (a fetch `Headers`)
 */
export async function loggedMessages(headers: { get(name: string): string | null }): Promise<string[]> {
  const storage: ProfilerStorage | undefined = kernel.profiler?.storage;
  const profile: TypedProfile = await profileOf({ headers }, storage);
  return profile.collectors.logger.records.map((r) => r.msg);
}

export const demoRoutes: RouteCollection = createDemoRoutes();
export { app, kernel, url, matched, notFound, httpError };
