import fs from 'node:fs';
import nunjucks from 'nunjucks';
import { formatMessage } from '../errors/codes';
import { KernelError } from '../errors/KernelError';
import { templates } from './templates';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_HTTP_ERROR_TEMPLATE: ErrorTemplateError;
  }
}

/** What an error page template gets. */
export interface ErrorPageContext {
  /** The HTTP status, e.g. 404. */
  status: number;
  /** Its reason phrase, e.g. `Not Found`. */
  reason: string;
  /** The error's message for a 4xx; empty for a 5xx (never shown outside debug mode). */
  message: string;
}

/**
 * A template file that does not compile, found by {@link ErrorTemplates.compile} (code
 * `ERR_HTTP_ERROR_TEMPLATE`; `createKernel` reports it as a `KernelConfigError`).
 */
export class ErrorTemplateError extends KernelError {
  override name = 'ErrorTemplateError';
  declare readonly code: 'ERR_HTTP_ERROR_TEMPLATE';
  /**
   * @param key - the status code or `default` the file was given for
   * @param file - the template's path
   */
  constructor(readonly key: string, readonly file: string, options: { cause: unknown }) {
    const reason = (options.cause as Error)?.message ?? String(options.cause);
    super('ERR_HTTP_ERROR_TEMPLATE', formatMessage('ERR_HTTP_ERROR_TEMPLATE', JSON.stringify(file), reason), options);
  }
}

/**
 * Error page templates of the application's own, by status code, with a `default` (Symfony's
 * `TwigErrorRenderer`: `@Twig/Exception/error404.html.twig`, then `error.html.twig`). They are
 * compiled once, in the kernel's nunjucks environment: auto-escaped, with its filters, and able
 * to extend or include the kernel's templates.
 */
export class ErrorTemplates {
  private constructor(private readonly byKey: ReadonlyMap<string, nunjucks.Template>) {}

  /**
   * Reads and compiles each file.
   * @param paths - absolute file paths by status code (`'404'`) or `'default'`
   * @throws ErrorTemplateError naming the key and file of a template that cannot be read or compiled
   */
  static compile(paths: Readonly<Record<string, string>>): ErrorTemplates {
    const byKey = new Map<string, nunjucks.Template>();
    for (const [key, file] of Object.entries(paths)) {
      try {
        byKey.set(key, new nunjucks.Template(fs.readFileSync(file, 'utf8'), templates, file, true));
      } catch (cause) {
        throw new ErrorTemplateError(key, file, { cause });
      }
    }
    return new ErrorTemplates(byKey);
  }

  /** Whether no template was given. */
  get empty(): boolean {
    return this.byKey.size === 0;
  }

  /**
   * Renders the status's template, else the `default` one.
   * @returns the HTML, or undefined when neither was given
   */
  render(context: ErrorPageContext): string | undefined {
    const template = this.byKey.get(String(context.status)) ?? this.byKey.get('default');
    return template?.render({ ...context });
  }
}
