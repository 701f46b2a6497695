import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import nunjucks from 'nunjucks';
import { TEMPLATES_DIR } from '../http/templates';
import type { DataCollector } from './collectors/DataCollector';

/**
 * The profiler's nunjucks environments, auto-escaping on: one over the package's `templates/`,
 * and one per folder of user panel templates (which can still import the built-in macros).
 */
function environment(searchPaths: string[]): nunjucks.Environment {
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(searchPaths), { autoescape: true, throwOnUndefined: false });
  env.addFilter('isoDate', (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ''));
  env.addFilter('mib', (bytes: unknown) => (typeof bytes === 'number' ? `${(bytes / 1048576).toFixed(1)} MiB` : ''));
  env.addFilter('ms', (ms: unknown) => (typeof ms === 'number' ? `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms` : ''));
  env.addFilter('reason', (status: unknown) => STATUS_CODES[Number(status)] ?? '');
  env.addFilter('json', (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  return env;
}

const builtIn = environment([TEMPLATES_DIR]);
const userEnvironments = new Map<string, nunjucks.Environment>();

/** The built-in panel of a collector name, when the package has one. */
function builtInPanel(name: string): string | undefined {
  const file = `profiler/panels/${name}.html.njk`;
  return fs.existsSync(path.join(TEMPLATES_DIR, file)) ? file : undefined;
}

/** Where a collector's panel template is: its own `template`, the built-in panel of its name, or the generic JSON panel. */
export interface PanelTemplate {
  /** An absolute folder for a user template; undefined for the package's templates. */
  readonly dir?: string;
  readonly name: string;
}

/**
 * Finds a collector's panel template.
 * @throws Error when the collector's `template` is not an absolute path to an existing file
 */
export function panelTemplateOf(collector: DataCollector): PanelTemplate {
  const template = collector.template;
  if (template === undefined) return { name: builtInPanel(collector.name) ?? 'profiler/panels/_data.html.njk' };
  if (!path.isAbsolute(template) || !fs.existsSync(template)) {
    throw new Error(`collector "${collector.name}" has template ${JSON.stringify(template)}, which is not an absolute path to an existing file; use e.g. path.join(__dirname, 'panel.html.njk').`);
  }
  return { dir: path.dirname(template), name: path.basename(template) };
}

/** Renders a collector's panel. */
export function renderPanel(template: PanelTemplate, context: Record<string, unknown>): string {
  if (template.dir === undefined) return builtIn.render(template.name, context);
  let env = userEnvironments.get(template.dir);
  if (env === undefined) {
    env = environment([template.dir, TEMPLATES_DIR]);
    userEnvironments.set(template.dir, env);
  }
  return env.render(template.name, context);
}

/**
 * Renders one of the profiler's page templates.
 * @param name - below `templates/`, e.g. `profiler/search.html.njk`
 */
export function renderView(name: string, context: Record<string, unknown>): string {
  return builtIn.render(name, context);
}

/** The profiler's static files, in `templates/profiler/assets/`. */
export type ProfilerAsset = 'toolbar.js' | 'toolbar.css' | 'exception.css';

const assets = new Map<string, string>();

/** A static file of the profiler, read once. */
export function profilerAsset(file: ProfilerAsset): string {
  let text = assets.get(file);
  if (text === undefined) {
    text = fs.readFileSync(path.join(TEMPLATES_DIR, 'profiler', 'assets', file), 'utf8');
    assets.set(file, text);
  }
  return text;
}
