/**
 * express-kernel/http: the HTTP floor under the kernel, usable in any Express app: the HTTP
 * errors, the request URI behind trusted proxies, the error renderer and the security headers.
 */
export * from './errors';
export { KernelError, isKernelError } from '../errors/KernelError';
export { resolveRequestUri, compileTrust } from './RequestUri';
export type { RequestUri, TrustFunction } from './RequestUri';
export { renderError, exceptionChain, statusOf, reasonPhrase } from './ErrorRenderer';
export type { ExceptionData, ErrorRenderOptions } from './ErrorRenderer';
export { securityHeaders } from './securityHeaders';
export { securityHeadersOptionsSchema } from './securityHeadersOptions';
export { refuseConnect } from './connect';
export { bodyParsing } from './body/bodyParsing';
export type { BodyParsingOptions } from './body/bodyParsing';
export { createJsonBodyReader, JSON_MAX_DEPTH, JSON_TYPES } from './body/JsonBodyReader';
export type { JsonBodyReader, JsonBodyReaderOptions } from './body/JsonBodyReader';
export { GracefulShutdown, parseShutdownTimeout, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './gracefulShutdown';
export type { GracefulShutdownOptions, ShutdownResult } from './gracefulShutdown';
