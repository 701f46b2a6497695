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

/**
 * PHP's `preg_quote` without a delimiter (its exact character set, `#` included), which Symfony
 * uses for a localized route's `_locale` requirement and to tell such a route (`Route::isLocalized`,
 * `RouteCompiler::compile`).
 */
export function pregQuote(text: string): string {
  return text.replace(/[.\\+*?[^\]$(){}=!<>|:\-#]/g, '\\$&');
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
  /** The last thing written was a quantifier (`+`, `*`, `?`, `{n,m}`): a `+` now makes it possessive. */
  let afterQuantifier = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && (n === 'z' || n === 'Z')) out += '$';
      else out += c + n;
      i++;
      afterQuantifier = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      afterQuantifier = false;
      out += c;
      if (source[i + 1] === '^') { out += '^'; i++; }
      if (source[i + 1] === ']') { out += '\\]'; i++; }
      continue;
    }
    if (c === '(') {
      afterQuantifier = false;
      const rest = source.slice(i + 1);
      if (rest.startsWith('?P<')) { out += '(?:'; i = source.indexOf('>', i) ; continue; }
      if (rest.startsWith('?<') && !rest.startsWith('?<=') && !rest.startsWith('?<!')) {
        out += '(?:'; i = source.indexOf('>', i); continue;
      }
      if (rest.startsWith("?'")) { out += '(?:'; i = source.indexOf("'", i + 3); continue; }
      if (rest.startsWith('?>')) { out += '(?:'; i += 2; continue; }
      if (rest.startsWith('?')) { out += '(?'; i++; continue; }
      out += '(?:';
      continue;
    }
    if (c === '+' || c === '*' || c === '?') {
      if (afterQuantifier) {
        // `x++` (possessive) loses its `+`; `x+?` (lazy) keeps its `?`. Either ends the quantifier.
        afterQuantifier = false;
        if (c === '+') continue;
        out += c;
        continue;
      }
      afterQuantifier = true;
      out += c;
      continue;
    }
    if (c === '{') {
      const q = /^\{\d+(?:,\d*)?\}/.exec(source.slice(i));
      if (q !== null) {
        out += q[0];
        i += q[0].length - 1;
        afterQuantifier = true;
        continue;
      }
    }
    afterQuantifier = false;
    out += c;
  }
  return out;
}

/**
 * Compiles a JavaScript regular expression: for Symfony's `utf8` routes (the default here),
 * preferring Unicode mode; for the others (`unicode` false), without it, as they run on bytes.
 * @param unicode - try Unicode mode first @default true
 * @returns the RegExp, or an Error naming what is wrong with the source
 */
export function compileRegex(source: string, flags: string, unicode = true): RegExp | Error {
  try {
    if (!unicode) return new RegExp(source, flags);
    return new RegExp(source, flags + 'u');
  } catch (e) {
    if (!unicode) return e as Error;
    try {
      return new RegExp(source, flags);
    } catch (e) {
      return e as Error;
    }
  }
}

const CLASS_ESCAPE = -1;
const UNSURE = -2;

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
      /** Reads one class atom at j and moves past it: a code unit, CLASS_ESCAPE or UNSURE. */
      const atom = (): number => {
        if (source[j] !== '\\') return source.charCodeAt(j++);
        const n = source[j + 1];
        if (n === undefined) return UNSURE;
        j += 2;
        if (n === 'd' || n === 'w' || n === 's') return CLASS_ESCAPE;
        if (/[a-zA-Z0-9]/.test(n)) return UNSURE;
        return n.charCodeAt(0);
      };
      while (j < source.length && source[j] !== ']') {
        const lo = atom();
        if (lo === UNSURE) return true;
        if (source[j] === '-' && j + 1 < source.length && source[j + 1] !== ']') {
          j++;
          const hi = atom();
          if (hi === UNSURE) return true;
          // Next to a class escape, `-` is a literal (Annex B): `[\d-0]` is \d, `-` and `0`.
          if (lo === CLASS_ESCAPE || hi === CLASS_ESCAPE) {
            if (lo === 47 || hi === 47) hasSlash = true;
          } else if (lo <= 47 && hi >= 47) {
            hasSlash = true;
          }
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

/**
 * Conservatively tells whether a requirement may look outside the text it matches: anchors
 * (`^`, `$`), word boundaries (`\b`, `\B`), lookarounds and backreferences. Such a requirement
 * can be checked only within the whole path, not within its segment alone. `false` is a promise
 * (the matcher's index relies on it); `true` only means "cannot tell".
 * @param source - the requirement in JavaScript syntax (see {@link pcreToJs})
 */
export function mayLookAround(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n === undefined) return true;
      if (!inClass && (n === 'b' || n === 'B' || n === 'k' || (n >= '1' && n <= '9'))) return true;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      continue;
    }
    if (c === '^' || c === '$') return true;
    if (c === '(' && source[i + 1] === '?') {
      const n = source[i + 2];
      if (n === '=' || n === '!') return true;
      if (n === '<' && (source[i + 3] === '=' || source[i + 3] === '!')) return true;
    }
  }
  return false;
}

/**
 * The "latin1 view" of a string: each UTF-8 byte of it as one character (U+0000–U+00FF), the
 * string PHP's byte-oriented regexes see. ASCII strings are returned as they are.
 */
export function byteView(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, 'utf8').toString('latin1');
  }
  return text;
}

/** The inverse of {@link byteView}: bytes (as latin1 characters) read back as UTF-8. */
export function fromByteView(bytes: string): string {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes.charCodeAt(i) > 0x7f) return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return bytes;
}
