import { formatMessage } from '../errors/codes';
import { KernelError } from '../errors/KernelError';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_ADMIN_UNEXPECTED_OUTCOME: AdminError;
    ERR_ADMIN_LOGOUT_NOT_CONFIGURED: AdminError;
  }
}

/** The codes an {@link AdminError} carries. */
type AdminErrorCode = 'ERR_ADMIN_UNEXPECTED_OUTCOME' | 'ERR_ADMIN_LOGOUT_NOT_CONFIGURED';

/**
 * A back-office set-up mistake or a state processor breaking its contract: not an HTTP error, so
 * the error layer answers 500 (its page, in debug mode the message for the developer).
 */
export class AdminError extends KernelError {
  override name = 'AdminError';
  declare readonly code: AdminErrorCode;

  /**
   * @param code - the registry code
   * @param args - the template's values, in order
   */
  constructor(code: AdminErrorCode, ...args: ReadonlyArray<string | number>) {
    super(code, formatMessage(code, ...args));
  }
}

/**
 * @param resource - the resource's short name, e.g. `Book`
 * @param action - the processor's method, e.g. `create`
 * @param status - the outcome's status the screen has no answer for
 * @returns an {@link AdminError} `ERR_ADMIN_UNEXPECTED_OUTCOME`
 */
export function unexpectedOutcome(resource: string, action: string, status: string): AdminError {
  return new AdminError('ERR_ADMIN_UNEXPECTED_OUTCOME', resource, action, status);
}

/**
 * @param path - the logout path whose controller ran, e.g. `/admin/logout`
 * @returns an {@link AdminError} `ERR_ADMIN_LOGOUT_NOT_CONFIGURED`
 */
export function logoutNotConfigured(path: string): AdminError {
  return new AdminError('ERR_ADMIN_LOGOUT_NOT_CONFIGURED', path, path);
}
