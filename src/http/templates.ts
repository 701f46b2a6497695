import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import nunjucks from 'nunjucks';

/** The folder of the package's nunjucks templates (`templates/` at the package root). */
export const TEMPLATES_DIR = path.resolve(__dirname, '..', '..', 'templates');

/**
 * A nunjucks environment over `searchPaths` with auto-escaping on (everything a page echoes is
 * HTML-escaped unless a template says otherwise) and the filters every template may use:
 * - `isoDate`: epoch milliseconds as ISO 8601 (`''` for anything but a finite number);
 * - `mib`: bytes as `12.3 MiB`; `ms`: milliseconds as `1.25 ms` below 10, else whole;
 * - `reason`: an HTTP status's reason phrase; `json`: pretty-printed JSON (`''` for undefined).
 * @param searchPaths - absolute folders, searched in order
 */
export function createTemplateEnvironment(searchPaths: readonly string[]): nunjucks.Environment {
  const loader = new nunjucks.FileSystemLoader([...searchPaths]);
  const env = new nunjucks.Environment(loader, { autoescape: true, throwOnUndefined: false });
  env.addFilter('isoDate', (ms: unknown) => (
    typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ''
  ));
  env.addFilter('mib', (bytes: unknown) => (typeof bytes === 'number' ? `${(bytes / 1048576).toFixed(1)} MiB` : ''));
  env.addFilter('ms', (ms: unknown) => (
    typeof ms === 'number' ? `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms` : ''
  ));
  env.addFilter('reason', (status: unknown) => STATUS_CODES[Number(status)] ?? '');
  env.addFilter('json', (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  return env;
}

/** The environment over the package's `templates/`: error pages, the profiler and its panels. */
export const templates = createTemplateEnvironment([TEMPLATES_DIR]);

/**
 * Renders a template.
 * @param name - path below `templates/`, e.g. `error/exception.html.njk`
 * @param context - the variables
 * @returns the HTML
 */
export function render(name: string, context: Record<string, unknown>): string {
  return templates.render(name, context);
}
