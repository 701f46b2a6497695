import { formatMessage } from '../errors/codes';
import { isKernelError } from '../errors/KernelError';
import { HttpError } from '../http/errors';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_HTTP_STORAGE_UNAVAILABLE: StorageUnavailableError;
  }
}

/** Seconds a client is told to wait (`Retry-After`) when a store is unavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** The default deadline of one store operation, in milliseconds. */
export const DEFAULT_STORAGE_TIMEOUT_MS = 1000;

/**
 * 503 with `Retry-After` (code `ERR_HTTP_STORAGE_UNAVAILABLE`): a store (sessions, login
 * throttling, profiles, the application's own data) is down, stalled past its deadline, full or
 * read-only. Never a 401: an outage is not a wrong password. The message names the store
 * (`Session storage is unavailable.`); {@link StorageUnavailableError.reason} and `cause` say why,
 * for the log.
 */
export class StorageUnavailableError extends HttpError {
  override name = 'StorageUnavailableError';
  /** The store, as named in the message: `Session`, `Login throttling`, `Profiler`, … */
  readonly store: string;
  /** Why, for the log: `timed out after 1000 ms`, `SQLITE_READONLY: attempt to write a readonly database`, … */
  readonly reason: string;

  /**
   * @param store - the store's name, capitalised (it starts the message)
   * @param reason - why it is unavailable
   * @param options - `cause`: the underlying error; `retryAfterSeconds` @default 5
   */
  constructor(store: string, reason: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    const retryAfter = Math.max(1, Math.ceil(options.retryAfterSeconds ?? STORAGE_RETRY_AFTER_SECONDS));
    super('ERR_HTTP_STORAGE_UNAVAILABLE', formatMessage('ERR_HTTP_STORAGE_UNAVAILABLE', store), {
      cause: options.cause,
      headers: { 'Retry-After': String(retryAfter) },
    });
    this.store = store;
    this.reason = reason;
  }
}

/**
 * Turns a store's failure into a {@link StorageUnavailableError} (kept as is when it already is one).
 * @param store - the store's name for the message
 * @param error - what the store threw
 * @returns the 503 error, with `error` as its cause
 */
export function storageUnavailable(store: string, error: unknown): StorageUnavailableError {
  if (isKernelError(error, 'ERR_HTTP_STORAGE_UNAVAILABLE')) return error;
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  return new StorageUnavailableError(store, `${code}${String(e?.message ?? error)}`, { cause: error });
}

/**
 * Runs one store operation with a deadline: the operation's result, or a
 * {@link StorageUnavailableError} when it fails or takes longer than `timeoutMs` (the operation
 * itself is not cancelled; its late result is ignored).
 * @param store - the store's name for the error message (`Session`, `Profiler`, …)
 * @param timeoutMs - the deadline in milliseconds; 0 or Infinity for none
 * @param operation - the operation, started here
 * @returns what the operation resolved with
 * @throws StorageUnavailableError 503 `<store> storage is unavailable.` (reason `timed out after
 *   <n> ms`, or the operation's error as cause)
 */
export async function withDeadline<T>(store: string, timeoutMs: number, operation: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const work = (async () => operation())().catch((e: unknown) => { throw storageUnavailable(store, e); });
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return work;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageUnavailableError(store, `timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
