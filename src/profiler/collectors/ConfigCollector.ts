import fs from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import { TEMPLATES_DIR } from '../../http/templates';
import { constantData } from '../profileJson';
import { redact } from '../redaction';
import type { CollectorSummary, DataCollector } from './DataCollector';

/** Data of the configuration panel. No environment variables: the profiler never dumps them. */
export interface ConfigData {
  versions: { node: string; express: string; expressKernel: string };
  /** The kernel's `environment` option (`dev`, `test`…), or null when unknown. */
  environment: string | null;
  debug: boolean | null;
  /**
   * The kernel's options as text-friendly values: functions by name, objects by class, secret-looking values
   * redacted.
   */
  options: Record<string, unknown>;
}

function versionOf(packageJson: string): string {
  try {
    const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function expressVersion(): string {
  try {
    return versionOf(require.resolve('express/package.json'));
  } catch {
    return 'unknown';
  }
}

/** A value for the panel: functions by name, class instances by class, arrays and plain objects walked. */
function describe(value: unknown, depth = 0): unknown {
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 4) return '[…]';
  if (Array.isArray(value)) return value.map((v) => describe(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== null && proto !== Object.prototype) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    if (name === 'RouteCollection') {
      return `[RouteCollection: ${String((value as { size?: number }).size ?? '?')} routes]`;
    }
    const level = (value as { level?: unknown }).level;
    if (typeof level === 'string' && 'levels' in value) return `[pino logger, level ${level}]`;
    return `[${name}]`;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = describe(v, depth + 1);
  return out;
}

/**
 * Versions of Node, Express and express-kernel, the environment, and the kernel's options with
 * secret-looking values redacted (Symfony `ConfigDataCollector`). It reads the options from the
 * kernel the request runs in (`req.app.kernelOptions`), once per kernel.
 */
export class ConfigCollector implements DataCollector<ConfigData> {
  readonly name = 'config';
  readonly label = 'Configuration';
  private readonly versions = {
    node: process.version,
    express: expressVersion(),
    expressKernel: versionOf(path.join(TEMPLATES_DIR, '..', 'package.json')),
  };
  private readonly described = new WeakMap<object, ConfigData>();
  private unknownKernel?: ConfigData;

  /** @returns the same deep-frozen object for every request of a kernel (see `constantData`) */
  collect(req: Request): ConfigData {
    const options = (req.app as unknown as { kernelOptions?: Record<string, unknown> } | undefined)?.kernelOptions;
    if (options === undefined) {
      this.unknownKernel ??= constantData({
        versions: { ...this.versions }, environment: null, debug: null, options: {},
      });
      return this.unknownKernel;
    }
    let config = this.described.get(options);
    if (config === undefined) {
      config = constantData({
        versions: { ...this.versions },
        environment: typeof options.environment === 'string' ? options.environment : null,
        debug: typeof options.debug === 'boolean' ? options.debug : null,
        options: redact(describe(options)) as Record<string, unknown>,
      });
      this.described.set(options, config);
    }
    return config;
  }

  /** The express-kernel version and environment, e.g. `0.1.0 (dev)`. */
  summary(data: ConfigData): CollectorSummary {
    const environment = data.environment === null ? '' : ` (${data.environment})`;
    return { text: `${data.versions.expressKernel}${environment}`, status: 'none' };
  }
}
