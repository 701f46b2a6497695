import fs from 'node:fs';
import {
  ConflictError, FormatNotSupportedError, InvalidQueryError, ItemNotFoundError, NotAcceptableError,
  PreconditionFailedError, ValidationError,
} from '../../src/api/http/ApiErrors';
import path from 'node:path';
import { expectTypeOf } from 'expect-type';
import * as api from '../../src';
import { unexpectedOutcome } from '../../src/admin/AdminError';
import { logoutRoute } from '../../src/admin/pages';
import { InvalidOption } from '../../src/cli/profilerCommands';
import { RoutesModuleError } from '../../src/cli/loadRoutes';
import { ERROR_CODES, ErrorCode, formatMessage } from '../../src/errors/codes';
import { isKernelError, KernelErrorClasses, KernelErrorOf } from '../../src/errors/KernelError';
import { statusOf } from '../../src/http/ErrorRenderer';
import { ErrorTemplates } from '../../src/http/ErrorTemplates';
import { criteriaOf } from '../../src/profiler/pageSupport';
import { parseRoutes } from '../../src/routing/loader/RouteFileLoader';
import { AuthenticationError, badCredentials, invalidCsrfToken } from '../../src/security/AuthenticationError';
import { LoginThrottler } from '../../src/security/LoginThrottler';
import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import { StorageUnavailableError } from '../../src/storage/StorageUnavailableError';

const ROOT = path.join(__dirname, '..', '..');
const docs = fs.readFileSync(path.join(ROOT, 'docs', 'ERRORS.md'), 'utf8');
const rows = [...docs.matchAll(/^\| `([A-Z_]+)` \| (\d+|—) \| `(\w+)` \| `(.*)` \|$/gm)]
  .map((m) => ({ code: m[1] as ErrorCode, status: m[2], class: m[3], template: m[4] }));
const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** What `run` throws (or rejects with); fails when it throws nothing. */
async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

/** A pattern for a registry template: each `%s` any text. */
function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.split('%s').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
}

/**
 * One error of each code, built as the kernel builds it: through the code that throws it where
 * that is a plain call, else through the class's constructor (which fills the template itself).
 * A `Record` over `ErrorCode`: a new code does not compile here until it has an example.
 */
const EXAMPLES: Record<ErrorCode, () => unknown> = {
  ERR_ROUTING_RESOURCE_NOT_FOUND: () => caught(() => {
    const routes = new api.RouteCollection();
    routes.add('a', new api.Route('/a'));
    new api.UrlMatcher(routes).match('/b', { method: 'GET', host: 'localhost', scheme: 'http' });
  }),
  ERR_ROUTING_NO_CONFIGURATION: () => caught(() => {
    new api.UrlMatcher(new api.RouteCollection()).match('/', { method: 'GET', host: 'localhost', scheme: 'http' });
  }),
  ERR_ROUTING_METHOD_NOT_ALLOWED: () => caught(() => {
    const routes = new api.RouteCollection();
    routes.add('a', new api.Route('/a', { methods: ['GET'] }));
    new api.UrlMatcher(routes).match('/a', { method: 'POST', host: 'localhost', scheme: 'http' });
  }),
  ERR_ROUTING_ROUTE_NOT_FOUND: () => new api.RouteNotFoundError('nope'),
  ERR_ROUTING_MISSING_PARAMETERS: () => new api.MissingMandatoryParametersError('post', ['id']),
  ERR_ROUTING_INVALID_PARAMETER: () => new api.InvalidParameterError('id', 'post', '\\d+', 'x'),
  ERR_ROUTING_INVALID_ROUTE: () => new api.InvalidRouteError('/{a}/{a}', 'duplicate variable "a".'),
  ERR_ROUTING_INVALID_ARGUMENT: () => new api.RoutingArgumentError('An alias cannot reference itself, got a link to "a".'),
  ERR_ROUTING_CIRCULAR_REFERENCE: () => new api.RouteCircularReferenceError('a', ['a', 'b', 'a']),
  ERR_ROUTING_LOADER: () => caught(() => parseRoutes({ a: { path: '/a', nope: 1 } }, 'routes.yaml')),
  ERR_HTTP_NOT_FOUND: () => new api.NotFoundHttpError(formatMessage('ERR_HTTP_NOT_FOUND', 'GET', 'http://localhost/b')),
  ERR_HTTP_METHOD_NOT_ALLOWED: () => new api.MethodNotAllowedHttpError(
    ['GET'], formatMessage('ERR_HTTP_METHOD_NOT_ALLOWED', 'POST', 'http://localhost/a', 'GET'),
  ),
  ERR_HTTP_BAD_REQUEST: () => new api.BadRequestHttpError('Invalid JSON.'),
  ERR_HTTP_INVALID_HOST: () => new api.BadRequestHttpError(
    formatMessage('ERR_HTTP_INVALID_HOST', 'a b'), {}, 'ERR_HTTP_INVALID_HOST',
  ),
  ERR_HTTP_INVALID_FORWARDED_HEADER: () => new api.BadRequestHttpError(
    formatMessage('ERR_HTTP_INVALID_FORWARDED_HEADER', 'X-Forwarded-Port', '-1'), {}, 'ERR_HTTP_INVALID_FORWARDED_HEADER',
  ),
  ERR_HTTP_UNTRUSTED_HOST: () => new api.BadRequestHttpError(
    formatMessage('ERR_HTTP_UNTRUSTED_HOST', 'evil.com'), {}, 'ERR_HTTP_UNTRUSTED_HOST',
  ),
  ERR_HTTP_JSON_TOO_DEEP: () => new api.BadRequestHttpError(
    formatMessage('ERR_HTTP_JSON_TOO_DEEP', 512), {}, 'ERR_HTTP_JSON_TOO_DEEP',
  ),
  ERR_HTTP_UNAUTHORIZED: () => new api.HttpError('ERR_HTTP_UNAUTHORIZED', formatMessage('ERR_HTTP_UNAUTHORIZED')),
  ERR_HTTP_FORBIDDEN: () => new api.AccessDeniedHttpError(),
  ERR_HTTP_PAYLOAD_TOO_LARGE: () => new api.HttpError(
    'ERR_HTTP_PAYLOAD_TOO_LARGE', formatMessage('ERR_HTTP_PAYLOAD_TOO_LARGE', 'request entity too large'),
  ),
  ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: () => new api.HttpError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type.'),
  ERR_HTTP_TOO_MANY_REQUESTS: () => new api.TooManyRequestsHttpError(60, 'Too many requests.'),
  ERR_HTTP_SERVICE_UNAVAILABLE: () => new api.ServiceUnavailableHttpError('Login throttling is unavailable.'),
  ERR_HTTP_STORAGE_UNAVAILABLE: () => new StorageUnavailableError('Session', 'timed out after 1000 ms'),
  ERR_HTTP_ERROR_TEMPLATE: () => caught(() => ErrorTemplates.compile({ 404: path.join(ROOT, 'no-such-file.njk') })),
  ERR_FIREWALL_BAD_CREDENTIALS: () => badCredentials(),
  ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS: () => caught(async () => {
    const throttler = new LoginThrottler({ maxAttempts: 1, store: new MemoryThrottleStore() });
    await throttler.fail('ada', '127.0.0.1');
    await throttler.check('ada', '127.0.0.1');
  }),
  ERR_FIREWALL_INVALID_CSRF_TOKEN: () => invalidCsrfToken(),
  ERR_API_INVALID_QUERY: () => new InvalidQueryError('Invalid query parameter "page": expected a whole number from 1.'),
  ERR_API_ITEM_NOT_FOUND: () => new ItemNotFoundError('Book', '999'),
  ERR_API_FORMAT_NOT_SUPPORTED: () => new FormatNotSupportedError('yaml'),
  ERR_API_NOT_ACCEPTABLE: () => new NotAcceptableError('text/csv', ['application/ld+json', 'application/json']),
  ERR_API_CONFLICT: () => new ConflictError('The Author "1" is still referenced by books.'),
  ERR_API_PRECONDITION_FAILED: () => new PreconditionFailedError('"1-2"'),
  ERR_API_VALIDATION_FAILED: () => new ValidationError([{ propertyPath: 'title', message: 'Required', code: 'invalid_type' }]),
  ERR_ADMIN_UNEXPECTED_OUTCOME: () => unexpectedOutcome('Book', 'create', 'conflict'),
  ERR_ADMIN_LOGOUT_NOT_CONFIGURED: () => caught(() => logoutRoute()()),
  ERR_PROFILER_PANEL_NOT_FOUND: () => new api.NotFoundHttpError(
    formatMessage('ERR_PROFILER_PANEL_NOT_FOUND', 'nope', 'abc123'), {}, 'ERR_PROFILER_PANEL_NOT_FOUND',
  ),
  ERR_PROFILER_INVALID_CRITERION: () => caught(() => criteriaOf({ status: 'teapot' }, true)),
  ERR_STORAGE_MISSING_PEER_DEPENDENCY: () => new api.MissingPeerDependencyError('redis'),
  ERR_CONFIG_INVALID_OPTION: () => new api.KernelConfigError('secret', 'expected a string (got 1).'),
  ERR_CLI_ROUTES_MODULE: () => new RoutesModuleError('routes.js', 'Cannot load the routes module "routes.js": nope'),
  ERR_CLI_INVALID_OPTION: () => new InvalidOption('limit', 'a whole number from 1 to 1000000', 'x'),
};

describe('the error-code registry', () => {
  test('docs/ERRORS.md lists exactly the registry, in order, with status and template', () => {
    expect(rows.map((r) => r.code)).toEqual(CODES);
    for (const r of rows) {
      const entry = ERROR_CODES[r.code];
      expect(r.status).toBe(entry.status === undefined ? '—' : String(entry.status));
      expect(r.template).toBe(entry.template);
    }
  });

  test('every code carries its layer prefix', () => {
    const layers = 'ADMIN|ROUTING|HTTP|API|PROFILER|CONFIG|CLI|FIREWALL|CORS|SESSION|LOCALE|TIMEZONE|STORAGE';
    for (const code of CODES) expect(code).toMatch(new RegExp(`^ERR_(${layers})_[A-Z_]+$`));
  });

  test('every code is raised somewhere in src/ (no dead codes)', () => {
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? files(full) : full.endsWith('.ts') && !full.endsWith(path.join('errors', 'codes.ts')) ? [full] : [];
    });
    const source = files(path.join(ROOT, 'src')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    expect(CODES.filter((code) => !source.includes(`'${code}'`))).toEqual([]);
  });

  test('formatMessage fills the template in order, a missing value as empty text', () => {
    expect(formatMessage('ERR_HTTP_METHOD_NOT_ALLOWED', 'POST', 'http://h/p', 'GET, HEAD'))
      .toBe('No route found for "POST http://h/p": Method Not Allowed (Allow: GET, HEAD)');
    expect(formatMessage('ERR_HTTP_NOT_FOUND', 'GET', 'http://h/p')).toBe('No route found for "GET http://h/p"');
    expect(formatMessage('ERR_HTTP_NOT_FOUND', 'GET', 'http://h/p', ' (from "http://h/")'))
      .toBe('No route found for "GET http://h/p" (from "http://h/")');
    expect(formatMessage('ERR_HTTP_BAD_REQUEST', 'a %s b')).toBe('a %s b');
  });
});

describe.each(CODES)('%s', (code) => {
  const { status, template } = ERROR_CODES[code];
  const row = rows.find((r) => r.code === code);

  test(`is built with its code, the class docs/ERRORS.md names, status ${status ?? '500 (not an HTTP error)'}`
    + ' and a message that follows its template', async () => {
    const error = await EXAMPLES[code]();
    expect(isKernelError(error)).toBe(true);
    expect(isKernelError(error, code)).toBe(true);
    if (!isKernelError(error)) return;
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(row?.class);
    expect(api.isHttpError(error)).toBe(status !== undefined);
    expect(statusOf(error)).toBe(status ?? 500);
    expect(error.message).toMatch(templatePattern(template));
  });
});

describe('isKernelError(value, code?)', () => {
  test('is false for anything not raised by the kernel, even with a registry code and a status', () => {
    const lookalike = Object.assign(new Error('No route found for "GET /"'), { code: 'ERR_HTTP_NOT_FOUND', status: 404 });
    for (const value of [lookalike, new Error('x'), null, undefined, 'ERR_HTTP_NOT_FOUND', { code: 'ERR_HTTP_NOT_FOUND' }]) {
      expect(isKernelError(value)).toBe(false);
      expect(api.isHttpError(value)).toBe(false);
    }
  });

  test('with a code or a list of codes, is true only for those codes', () => {
    const e = new api.ResourceNotFoundError('/b');
    expect(isKernelError(e, 'ERR_ROUTING_RESOURCE_NOT_FOUND')).toBe(true);
    expect(isKernelError(e, ['ERR_ROUTING_NO_CONFIGURATION', 'ERR_ROUTING_RESOURCE_NOT_FOUND'])).toBe(true);
    expect(isKernelError(e, 'ERR_ROUTING_NO_CONFIGURATION')).toBe(false);
    expect(isKernelError(e, [])).toBe(false);
  });

  test('recognises an error of another copy of the package, which instanceof does not', () => {
    let copy: typeof import('../../src/http/errors') | undefined;
    jest.isolateModules(() => {
      copy = jest.requireActual<typeof import('../../src/http/errors')>('../../src/http/errors');
    });
    const foreign = new copy!.NotFoundHttpError('No route found for "GET http://localhost/b"');
    expect(foreign).not.toBeInstanceOf(api.HttpError);
    expect(isKernelError(foreign, 'ERR_HTTP_NOT_FOUND')).toBe(true);
    expect(api.isHttpError(foreign)).toBe(true);
    expect(statusOf(foreign)).toBe(404);
    expect(api.isRoutingError(foreign)).toBe(false);
    expect(copy!.isHttpError(new api.MethodNotAllowedError('POST', ['GET']))).toBe(false);
    expect(copy!.isHttpError(new api.NotFoundHttpError('x'))).toBe(true);
  });

  test('narrows to the class of the code (each code has its class)', () => {
    expectTypeOf<KernelErrorOf<'ERR_ROUTING_METHOD_NOT_ALLOWED'>>().toEqualTypeOf<api.MethodNotAllowedError>();
    expectTypeOf<KernelErrorOf<'ERR_HTTP_STORAGE_UNAVAILABLE'>>().toEqualTypeOf<StorageUnavailableError>();
    expectTypeOf<KernelErrorOf<'ERR_FIREWALL_BAD_CREDENTIALS'>>().toEqualTypeOf<AuthenticationError>();
    expectTypeOf<Exclude<ErrorCode, keyof KernelErrorClasses>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<keyof KernelErrorClasses, ErrorCode>>().toEqualTypeOf<never>();
  });
});
