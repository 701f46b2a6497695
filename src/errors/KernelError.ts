import type { ErrorCode } from './codes';

const KERNEL_ERROR = Symbol.for('express-kernel.KernelError');

/** Options of every {@link KernelError}. */
export interface KernelErrorOptions {
  /** The error that caused this one (kept as `cause`, shown in the exception page and profile). */
  cause?: unknown;
  /**
   * `false` skips capturing a stack trace: for errors thrown as control flow on every miss (the
   * routing matcher's), where a trace costs microseconds and says nothing. @default true
   */
  stack?: boolean;
}

/**
 * The class of each code, for {@link isKernelError}'s narrowing. Each layer adds its own codes by
 * declaration merging (`declare module '../errors/KernelError'`); a code not listed narrows to
 * `KernelError` with that code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KernelErrorClasses {}

/** The error class of code `C` (see {@link KernelErrorClasses}). */
export type KernelErrorOf<C extends ErrorCode> = C extends keyof KernelErrorClasses
  ? KernelErrorClasses[C]
  : KernelError & { readonly code: C };

/**
 * The base class of every error express-kernel raises: a stable {@link ErrorCode} from the
 * registry (`src/errors/codes.ts`, listed in docs/ERRORS.md), a literal `name` in each subclass,
 * and the chained `cause`. Subclasses keep their context as readonly properties. Mirrors ky's
 * `KyError` and fastify's `FastifyError`.
 */
export class KernelError extends Error {
  /** The stable code from the registry. */
  readonly code: ErrorCode;

  /**
   * @param code - the registry code
   * @param message - the message, filled from the code's template (`formatMessage`)
   * @param options - `cause`; `stack: false` to skip the stack trace
   */
  constructor(code: ErrorCode, message: string, options?: KernelErrorOptions) {
    const limit = Error.stackTraceLimit;
    if (options?.stack === false) Error.stackTraceLimit = 0;
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.code = code;
  }
}
Object.defineProperty(KernelError.prototype, 'name', { value: 'KernelError', writable: true, configurable: true });
Object.defineProperty(KernelError.prototype, KERNEL_ERROR, { value: true });

/**
 * The one check for "is this one of ours": true when `value` is a {@link KernelError}, also across
 * realms and package copies (a `Symbol.for` brand, not `instanceof`), and, when `code` is given,
 * when its code is that one (or one of those).
 * @param value - anything caught
 * @param code - a code, or a list of codes, to narrow to their classes
 * @example `if (isKernelError(e, 'ERR_ROUTING_METHOD_NOT_ALLOWED')) e.allowedMethods`
 */
export function isKernelError(value: unknown): value is KernelError;
export function isKernelError<C extends ErrorCode>(value: unknown, code: C | readonly C[]): value is KernelErrorOf<C>;
export function isKernelError(value: unknown, code?: ErrorCode | readonly ErrorCode[]): boolean {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[KERNEL_ERROR] !== true) {
    return false;
  }
  if (code === undefined) return true;
  const own = (value as KernelError).code;
  return typeof code === 'string' ? own === code : code.includes(own);
}
