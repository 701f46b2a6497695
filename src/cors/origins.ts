import { invalidOption } from '../config/optionError';

/**
 * An allowed origin: an exact serialised origin (`https://app.example.com`, `null` for opaque
 * origins), `*` for any origin, or an anchored regular expression tested against the whole
 * `Origin` header (`/^https:\/\/[a-z0-9-]+\.example\.com$/`).
 */
export type OriginPattern = string | RegExp;

/** A validated origin list: exact strings in a set, wildcard flag, stateless regular expressions. */
export interface OriginList {
  readonly any: boolean;
  readonly exact: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

const SERIALISED_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * Validates an origin list at construction (RFC 6454 serialisation: lowercase scheme and host,
 * no path, no trailing slash). Regular expressions must be anchored with `^…$`, so that
 * `/example\.com/` cannot let `https://example.com.evil.test` in; `g` and `y` flags are dropped
 * (they make `test()` stateful).
 * @param origins - the configured list
 * @param option - the option name for messages, e.g. `cors.paths["^/api"].origins`
 * @throws KernelConfigError naming the entry, its value and the fix
 */
export function compileOrigins(origins: readonly OriginPattern[], option: string): OriginList {
  if (!Array.isArray(origins)) throw invalidOption(option, 'expected a list of origins (strings or RegExps)', origins);
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  let any = false;
  origins.forEach((origin: unknown, i) => {
    const at = `${option}[${i}]`;
    if (origin instanceof RegExp) {
      if (!origin.source.startsWith('^') || !origin.source.endsWith('$')) {
        const what = `the regular expression /${origin.source}/ must be anchored with ^ and $ so that it matches whole `
          + 'origins, e.g. /^https:\\/\\/(.+\\.)?example\\.com$/';
        throw invalidOption(at, what, origin, { got: false });
      }
      patterns.push(new RegExp(origin.source, origin.flags.replace(/[gy]/g, '')));
    } else if (origin === '*') {
      any = true;
    } else if (typeof origin === 'string' && (origin === 'null' || SERIALISED_ORIGIN.test(origin))) {
      exact.add(origin);
    } else {
      const fixed = typeof origin === 'string' ? origin.toLowerCase().replace(/\/+$/, '') : '';
      const hint = fixed !== origin && SERIALISED_ORIGIN.test(fixed)
        ? `did you mean "${fixed}"?` : 'write scheme://host[:port], e.g. "https://app.example.com"';
      throw invalidOption(at, 'expected an origin, "*" or an anchored RegExp', origin, { hint });
    }
  });
  return Object.freeze({ any, exact: Object.freeze(exact), patterns: Object.freeze(patterns) });
}

/**
 * Whether `origin` (an `Origin` header value) is in the list: equal to an exact entry, matched by
 * an entry's regular expression, or any non-empty origin when the list has `*`. Never throws.
 * @param origin - the header value, possibly missing or hostile
 * @param list - a list from {@link compileOrigins}
 */
export function isOriginAllowed(origin: string | undefined, list: OriginList): boolean {
  if (typeof origin !== 'string' || origin === '') return false;
  if (list.any || list.exact.has(origin)) return true;
  for (const pattern of list.patterns) if (pattern.test(origin)) return true;
  return false;
}
