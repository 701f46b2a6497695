/**
 * Helpers that turn the PCRE flavour of Symfony requirements into JavaScript regular expressions.
 * Possessive quantifiers and atomic groups become greedy ones, named and plain groups become
 * non-capturing (variables are the only capturing groups in a route regex), `\A` and `\z`
 * become anchors.
 */

const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** Escapes text for use outside a character class (PHP `preg_quote`). */
export function quoteRegex(text: string): string {
  return text.replace(SPECIAL, '\\$&');
}

/** Escapes text for use inside a character class. */
export function quoteClass(text: string): string {
  return text.replace(/[\\\]^-]/g, '\\$&');
}

/**
 * Rewrites a requirement into JavaScript syntax with no capturing group.
 * @param source - PCRE-like requirement, e.g. `\d++` or `(?P<x>en|fr)`
 * @returns the JavaScript source, e.g. `\d+` or `(?:en|fr)`
 */
export function pcreToJs(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && (n === 'z' || n === 'Z')) out += '$';
      else out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === '^') { out += '^'; i++; }
      if (source[i + 1] === ']') { out += '\\]'; i++; }
      continue;
    }
    if (c === '(') {
      const rest = source.slice(i + 1);
      if (rest.startsWith('?P<')) { out += '(?:'; i = source.indexOf('>', i) ; continue; }
      if (rest.startsWith('?<') && !rest.startsWith('?<=') && !rest.startsWith('?<!')) { out += '(?:'; i = source.indexOf('>', i); continue; }
      if (rest.startsWith("?'")) { out += '(?:'; i = source.indexOf("'", i + 3); continue; }
      if (rest.startsWith('?>')) { out += '(?:'; i += 2; continue; }
      if (rest.startsWith('?')) { out += c; continue; }
      out += '(?:';
      continue;
    }
    if (c === '+' && i > 0 && /[+*?}]/.test(source[i - 1]) && source[i - 2] !== '\\') {
      // possessive quantifier: drop the '+'
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Compiles a JavaScript regular expression, preferring Unicode mode (Symfony's `utf8` routes).
 * @returns the RegExp, or an Error naming what is wrong with the source
 */
export function compileRegex(source: string, flags: string): RegExp | Error {
  try {
    return new RegExp(source, flags + 'u');
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      return e as Error;
    }
  }
}

/**
 * Conservatively tells whether a requirement may match a string that contains `/`. `false` is a
 * promise (the matcher's index relies on it); `true` only means "cannot tell".
 */
export function mayMatchSlash(source: string): boolean {
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n === undefined) return true;
      if ('dwsbB'.includes(n)) { i += 2; continue; }
      if (/[a-zA-Z0-9]/.test(n) || n === '/') return true;
      i += 2;
      continue;
    }
    if (c === '.' || c === '/') return true;
    if (c === '[') {
      let j = i + 1;
      let negated = false;
      if (source[j] === '^') { negated = true; j++; }
      let hasSlash = false;
      while (j < source.length && source[j] !== ']') {
        let lo: number;
        if (source[j] === '\\') {
          const n = source[j + 1];
          if (n === undefined) return true;
          j += 2;
          if ('dws'.includes(n)) continue;
          if (/[a-zA-Z0-9]/.test(n)) return true;
          lo = n.charCodeAt(0);
        } else {
          lo = source.charCodeAt(j);
          j++;
        }
        if (source[j] === '-' && j + 1 < source.length && source[j + 1] !== ']') {
          let hi: number;
          if (source[j + 1] === '\\') {
            const n = source[j + 2];
            if (n === undefined || /[a-zA-Z0-9]/.test(n)) return true;
            hi = n.charCodeAt(0);
            j += 3;
          } else {
            hi = source.charCodeAt(j + 1);
            j += 2;
          }
          if (lo <= 47 && hi >= 47) hasSlash = true;
          continue;
        }
        if (lo === 47) hasSlash = true;
      }
      if (j >= source.length) return true;
      i = j + 1;
      if (negated !== hasSlash) return true;
      continue;
    }
    i++;
  }
  return false;
}
