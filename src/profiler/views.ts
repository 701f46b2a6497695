import fs from 'node:fs';
import path from 'node:path';
import type nunjucks from 'nunjucks';
import { TEMPLATES_DIR, createTemplateEnvironment, templates } from '../http/templates';
import type { DataCollector } from './collectors/DataCollector';

/**
 * The package's templates render through the one environment of `http/templates`; a folder of
 * user panel templates gets its own (searching that folder, then `templates/`, so the built-in
 * macros stay importable), made by the same factory with the same filters.
 */
const builtIn = templates;
const userEnvironments = new Map<string, nunjucks.Environment>();

/** The built-in panel of a collector name, when the package has one. */
function builtInPanel(name: string): string | undefined {
  const file = `profiler/panels/${name}.html.njk`;
  return fs.existsSync(path.join(TEMPLATES_DIR, file)) ? file : undefined;
}

/**
 * Where a collector's panel template is: its own `template`, the built-in panel of its name, or the generic JSON
 * panel.
 */
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
    throw new Error(`collector "${collector.name}" has template ${JSON.stringify(template)}, `
      + 'which is not an absolute path to an existing file; use e.g. path.join(__dirname, \'panel.html.njk\').');
  }
  return { dir: path.dirname(template), name: path.basename(template) };
}

/** Renders a collector's panel. */
export function renderPanel(template: PanelTemplate, context: Record<string, unknown>): string {
  if (template.dir === undefined) return builtIn.render(template.name, context);
  let env = userEnvironments.get(template.dir);
  if (env === undefined) {
    env = createTemplateEnvironment([template.dir, TEMPLATES_DIR]);
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
