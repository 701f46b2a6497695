/**
 * A bad option, found at construction (kernel or layer factory), never on a request. The message
 * names the option by its full path, shows the value and says how to fix it:
 * `Invalid option "<path>": <what>`. Code `ERR_CONFIG_INVALID_OPTION`, see docs/ERRORS.md.
 */
export class KernelConfigError extends Error {
  override name = 'KernelConfigError';
  readonly code = 'ERR_CONFIG_INVALID_OPTION' as const;
  /**
   * @param option - the option's full path, e.g. `cors.paths[0].origins` or `secret`
   * @param message - what is wrong and how to fix it
   */
  constructor(readonly option: string, message: string) {
    super(`Invalid option "${option}": ${message}`);
  }
}
