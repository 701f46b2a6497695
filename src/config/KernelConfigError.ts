import { formatMessage } from '../errors/codes';
import { KernelError } from '../errors/KernelError';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_CONFIG_INVALID_OPTION: KernelConfigError;
  }
}

/**
 * A bad option, found at construction (kernel or layer factory), never on a request. The message
 * names the option by its full path, shows the value and says how to fix it:
 * `Invalid option "<path>": <what>`. Code `ERR_CONFIG_INVALID_OPTION`, see docs/ERRORS.md.
 */
export class KernelConfigError extends KernelError {
  override name = 'KernelConfigError';
  declare readonly code: 'ERR_CONFIG_INVALID_OPTION';
  /** The option's full path, e.g. `cors.paths[0].origins`. */
  readonly option: string;

  /**
   * @param option - the option's full path, e.g. `cors.paths[0].origins` or `secret`
   * @param message - what is wrong and how to fix it
   * @param options - the cause, e.g. the schema validator's issue
   */
  constructor(option: string, message: string, options?: { cause?: unknown }) {
    super('ERR_CONFIG_INVALID_OPTION', formatMessage('ERR_CONFIG_INVALID_OPTION', option, message), options);
    this.option = option;
  }
}
