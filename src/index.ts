/**
 * express-kernel: a layered HTTP kernel for Express 5 with Symfony's routing semantics and a
 * debug web profiler.
 *
 * The root entry is the front door: `createKernel`, the routing essentials and the errors. Each
 * part has its own entry point, which loads only what it needs:
 * `express-kernel/routing` (no HTTP), `/http`, `/security`, `/session`, `/cors`, `/locale`,
 * `/timezone`, `/profiler`, `/testing` and `/demo`.
 */
export const VERSION = '0.1.0';

export { createKernel } from './kernel/createKernel';
export type { Kernel } from './kernel/createKernel';
export { KernelConfigError } from './config/KernelConfigError';
export { kernelOptionsSchema, resolveKernelOptions } from './kernel/options';
export type { KernelOptions, KernelSessionOptions, PluggableLayer, ResolvedKernelOptions } from './kernel/options';
export { LAYER_ORDER } from './kernel/layers';
export type { KernelRequestState } from './kernel/state';
// The request state the kernel's locale and time-zone layers add (`req.locale`, `req.timeZone`):
// exporting their types brings the layers' `Request` augmentations to every root import.
export type { LocaleInfo } from './locale/localeLayer';
export type { TimeZoneInfo } from './timezone/timeZoneLayer';
export { requestLog } from './profiler/requestLogger';

// the routing essentials (the rest of the component: express-kernel/routing)
export { Route } from './routing/Route';
export type { RouteOptions, Controller, RouteCondition } from './routing/Route';
export { RouteCollection } from './routing/RouteCollection';
export { createRequestContext } from './routing/RequestContext';
export type { RequestContext } from './routing/RequestContext';
export { UrlMatcher } from './routing/matcher/UrlMatcher';
export type { UrlMatcherOptions } from './routing/matcher/UrlMatcher';
export type {
  UrlMatcherInterface, MatchContext, MatchResult, MatchFailure,
} from './routing/matcher/UrlMatcherInterface';
export { UrlGenerator, ReferenceType } from './routing/generator/UrlGenerator';
export type { UrlGeneratorInterface, ParameterValue } from './routing/generator/UrlGenerator';

// the errors
export * from './routing/errors';
export * from './http/errors';
export { ERROR_CODES, formatMessage } from './errors/codes';
export type { ErrorCode, HttpErrorCode } from './errors/codes';
export { KernelError, isKernelError } from './errors/KernelError';
export type { KernelErrorClasses, KernelErrorOf, KernelErrorOptions } from './errors/KernelError';
export { MissingPeerDependencyError } from './storage/optionalPeer';
export type { OptionalPeer } from './storage/optionalPeer';
