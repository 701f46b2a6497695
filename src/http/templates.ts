import path from 'node:path';
import nunjucks from 'nunjucks';

/** The folder of the package's nunjucks templates (`templates/` at the package root). */
export const TEMPLATES_DIR = path.resolve(__dirname, '..', '..', 'templates');

/**
 * The template environment: nunjucks with auto-escaping on, so everything a page echoes is
 * HTML-escaped unless a template says otherwise.
 */
export const templates = new nunjucks.Environment(new nunjucks.FileSystemLoader(TEMPLATES_DIR, { noCache: false }), {
  autoescape: true,
  throwOnUndefined: false,
});
templates.addFilter('isoDate', (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString() : ''));

/**
 * Renders a template.
 * @param name - path below `templates/`, e.g. `error/exception.html.njk`
 * @param context - the variables
 * @returns the HTML
 */
export function render(name: string, context: Record<string, unknown>): string {
  return templates.render(name, context);
}
