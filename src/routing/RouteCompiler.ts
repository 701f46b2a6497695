import type { Route } from './Route';
import { InvalidRouteError } from './errors';
import { compileRegex, mayLookAround, mayMatchSlash, pcreToJs, quoteClass, quoteRegex } from './pcre';

/** Static text of a pattern. */
export interface TextToken {
  readonly kind: 'text';
  readonly text: string;
}

/** A `{variable}` of a pattern, with the separator that precedes it and its regex source. */
export interface VariableToken {
  readonly kind: 'variable';
  readonly separator: string;
  readonly regex: string;
  readonly name: string;
  /** `{!name}`: always generated, never optional. */
  readonly important: boolean;
}

export type Token = TextToken | VariableToken;

/** One path segment (between two `/`) as the matcher's index sees it. */
export type IndexSegment =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'dynamic'; readonly source: string; readonly regex: RegExp };

/**
 * The compiled form of a {@link Route} (Symfony `CompiledRoute`): its tokens, its regular
 * expressions and what the matcher's index needs.
 */
export interface CompiledRoute {
  /**
   * The path compiled: the route's, except for a localized route (see `Route.isLocalized`), whose
   * locale is written in place of `{_locale}` (Symfony's `RouteCompiler` changes the route's path
   * so, and drops its `_locale` requirement). @example '/fr/fourchette' for '/{_locale}/fourchette'
   */
  readonly path: string;
  /** Text before the first variable (Symfony `getStaticPrefix()`). */
  readonly staticPrefix: string;
  /** `^…$` over the whole path; capture group i+1 is `pathVariables[i]`. */
  readonly regex: RegExp;
  /** The regex the matcher runs: one optional trailing slash (`/?$`), as Symfony's compiled matcher. */
  readonly matchRegex: RegExp;
  readonly tokens: readonly Token[];
  readonly pathVariables: readonly string[];
  readonly hostRegex: RegExp | null;
  readonly hostTokens: readonly Token[];
  readonly hostVariables: readonly string[];
  /** Host then path variables. */
  readonly variables: readonly string[];
  /** The path ends with `/` (and is not `/`). */
  readonly hasTrailingSlash: boolean;
  /** The path ends with a variable, optionally followed by `/`. */
  readonly hasTrailingVar: boolean;
  /**
   * Segments of the path for the matcher's index (trailing empty ones dropped); `tailFrom` is
   * where the index stops following them (-1: it follows them all).
   */
  readonly indexSegments: readonly IndexSegment[];
  readonly tailFrom: number;
  /** The route's `utf8` option: its regexes run on characters (Unicode mode), else on bytes. */
  readonly utf8: boolean;
  /**
   * The route (without `utf8`) must see the path's bytes: some variable may match part of a
   * multi-byte character (`.`, a negated class other than `[^…]+`, `\D`, …) or two variables
   * touch. Otherwise bytes and characters give the same answer (the literals are ASCII and no
   * atom can tell a character from its bytes), and the matcher skips building the byte view.
   */
  readonly matchesBytes: boolean;
}

const SEPARATORS = '/,;.:-_~+*=@|';
const VARIABLE = /\{(!)?([\w\u0080-\uffff]+)\}/g;
const MAX_VARIABLE_LENGTH = 32;

function findNextSeparator(pattern: string): string {
  if (pattern === '') return '';
  const stripped = pattern.replace(/\{[\w\u0080-\uffff]+\}/g, '');
  if (stripped === '') return '';
  const first = [...stripped][0];
  return SEPARATORS.includes(first) ? first : '';
}

interface Compiled {
  tokens: Token[];
  variables: string[];
  source: string;
  firstOptional: number;
}

// eslint-disable-next-line no-control-regex -- \x00-\x7f is "ASCII": NUL is in the range on purpose
const NON_ASCII = /[^\x00-\x7f]/;
/** Symfony's test for a requirement that needs UTF-8 mode: `\X`, `\p{L}`, `\P{L}`, `\x{263A}`. */
const UTF8_ESCAPE = /(?<!\\)\\(?:\\\\)*(?:X|[pP][{CLMNPSZ]|x\{[A-Fa-f0-9]{3})/;

function compilePattern(
  route: Route, requirements: Readonly<Record<string, string>>, path: string, pattern: string, isHost: boolean,
): Compiled {
  if (!route.utf8 && NON_ASCII.test(pattern)) {
    throw new InvalidRouteError(path, `Cannot use UTF-8 route patterns without setting the "utf8" option for ` +
      `route "${path}".`);
  }
  const tokens: Token[] = [];
  const variables: string[] = [];
  const defaultSeparator = isHost ? '.' : '/';
  let pos = 0;
  for (const m of pattern.matchAll(VARIABLE)) {
    const important = m[1] === '!';
    const name = m[2];
    const offset = m.index ?? 0;
    const precedingText = pattern.slice(pos, offset);
    pos = offset + m[0].length;
    const chars = [...precedingText];
    const precedingChar = chars.length > 0 ? chars[chars.length - 1] : '';
    const isSeparator = precedingChar !== '' && SEPARATORS.includes(precedingChar);
    if (/^\d/.test(name)) {
      throw new InvalidRouteError(pattern, `Variable name "${name}" cannot start with a digit in route pattern ` +
        `"${pattern}". Please use a different name.`);
    }
    if (variables.includes(name)) {
      throw new InvalidRouteError(pattern, `Route pattern "${pattern}" cannot reference variable name "${name}" more ` +
        `than once.`);
    }
    if (name.length > MAX_VARIABLE_LENGTH) {
      throw new InvalidRouteError(pattern, `Variable name "${name}" cannot be longer than ${MAX_VARIABLE_LENGTH} ` +
        `characters in route pattern "${pattern}". Please use a shorter name.`);
    }
    if (isSeparator && precedingText !== precedingChar) {
      tokens.push({ kind: 'text', text: precedingText.slice(0, precedingText.length - precedingChar.length) });
    } else if (!isSeparator && precedingText !== '') {
      tokens.push({ kind: 'text', text: precedingText });
    }
    const requirement = Object.prototype.hasOwnProperty.call(requirements, name) ? requirements[name] : undefined;
    let regex: string;
    if (requirement === undefined) {
      const nextSeparator = findNextSeparator(pattern.slice(pos));
      const extra = nextSeparator !== defaultSeparator && nextSeparator !== '' ? quoteClass(nextSeparator) : '';
      regex = `[^${quoteClass(defaultSeparator)}${extra}]+`;
    } else {
      if (!route.utf8 && (NON_ASCII.test(requirement) || UTF8_ESCAPE.test(requirement))) {
        throw new InvalidRouteError(pattern, `Cannot use UTF-8 route requirements without setting the "utf8" option ` +
          `for variable "${name}" in pattern "${pattern}".`);
      }
      regex = pcreToJs(requirement);
      const check = compileRegex(regex, '', route.utf8);
      if (check instanceof Error) {
        throw new InvalidRouteError(pattern, `Requirement for "${name}" is not a valid regular expression ` +
          `(${requirement}): ${check.message}`);
      }
    }
    tokens.push({ kind: 'variable', separator: isSeparator ? precedingChar : '', regex, name, important });
    variables.push(name);
  }
  if (pos < pattern.length) tokens.push({ kind: 'text', text: pattern.slice(pos) });

  let firstOptional = Number.POSITIVE_INFINITY;
  if (!isHost) {
    for (let i = tokens.length - 1; i >= 0; i--) {
      const t = tokens[i];
      if (t.kind === 'variable' && !t.important && route.hasDefault(t.name)) firstOptional = i;
      else break;
    }
  }
  let source = '';
  for (let i = 0; i < tokens.length; i++) source += computeRegexp(tokens, i, firstOptional);
  return { tokens, variables, source, firstOptional };
}

function computeRegexp(tokens: Token[], index: number, firstOptional: number): string {
  const token = tokens[index];
  if (token.kind === 'text') return quoteRegex(token.text);
  if (index === 0 && firstOptional === 0) return `${quoteRegex(token.separator)}(${token.regex})?`;
  let regexp = `${quoteRegex(token.separator)}(${token.regex})`;
  if (index >= firstOptional) {
    regexp = `(?:${regexp}`;
    if (tokens.length - 1 === index) {
      regexp += ')?'.repeat(tokens.length - firstOptional - (firstOptional === 0 ? 1 : 0));
    }
  }
  return regexp;
}

function staticPrefixOf(route: Route, tokens: Token[]): string {
  const first = tokens[0];
  if (first === undefined) return '';
  if (first.kind === 'variable') return route.hasDefault(first.name) || first.separator === '/' ? '' : first.separator;
  let prefix = first.text;
  const second = tokens[1];
  if (second !== undefined && second.kind === 'variable' && second.separator !== '/'
    && !route.hasDefault(second.name)) {
    prefix += second.separator;
  }
  return prefix;
}

function mustCompile(source: string, flags: string, pattern: string, unicode: boolean): RegExp {
  const re = compileRegex(source, flags, unicode);
  if (re instanceof Error) throw new InvalidRouteError(pattern, re.message);
  return re;
}

interface SegmentDraft { parts: Array<{ text: string } | { token: VariableToken; index: number }> }

/**
 * Splits the path into the segments the matcher's index follows. The index reads a request path
 * with all its trailing slashes trimmed, segment by segment, and must find every route whose
 * regex may match it; so it stops following a route (`tailFrom`) at the first segment it cannot
 * check alone: a variable that is optional, may match `/`, or may look outside its segment
 * (anchors, lookarounds), a segment that does not compile, and a run of segments at the end
 * that may all be empty (the trimmed request may have lost them). Trailing empty static
 * segments (`/a/`, `/a//`) are dropped, as the request's trailing slashes are.
 */
function indexSegmentsOf(
  tokens: Token[],
  firstOptional: number,
  flags: string,
): { segments: IndexSegment[]; tailFrom: number } {
  const drafts: SegmentDraft[] = [{ parts: [] }];
  tokens.forEach((t, index) => {
    if (t.kind === 'text') {
      t.text.split('/').forEach((piece, k) => {
        if (k > 0) drafts.push({ parts: [] });
        if (piece !== '') drafts[drafts.length - 1].parts.push({ text: piece });
      });
    } else {
      if (t.separator === '/') drafts.push({ parts: [] });
      else if (t.separator !== '') drafts[drafts.length - 1].parts.push({ text: t.separator });
      drafts[drafts.length - 1].parts.push({ token: t, index });
    }
  });
  drafts.shift();
  let tailFrom = -1;
  const segments: IndexSegment[] = [];
  /** Segments [0, nonEmpty) end with one that cannot match the empty string (or are none). */
  let nonEmpty = 0;
  drafts.forEach((d, si) => {
    if (tailFrom !== -1) return;
    let source = '';
    let dynamic = false;
    for (const p of d.parts) {
      if ('text' in p) source += quoteRegex(p.text);
      else {
        dynamic = true;
        const r = p.token.regex;
        if (p.index >= firstOptional || mayMatchSlash(r) || mayLookAround(r)) tailFrom = si;
        source += `(?:${r})`;
      }
    }
    if (tailFrom !== -1) return;
    if (!dynamic) {
      const text = d.parts.map((p) => ('text' in p ? p.text : '')).join('');
      segments.push({ kind: 'static', text });
      if (text !== '') nonEmpty = si + 1;
      return;
    }
    let regex: RegExp;
    try {
      regex = new RegExp(`^${source}$`, flags);
    } catch {
      tailFrom = si;
      return;
    }
    segments.push({ kind: 'dynamic', source, regex });
    if (!regex.test('')) nonEmpty = si + 1;
  });
  // `segments` stops before tailFrom. What the index does not follow may be empty, or only
  // slashes, and so may a run of segments before it: the trimmed request may end before them.
  const tail = tailFrom !== -1 || segments.slice(nonEmpty).some((s) => s.kind === 'dynamic');
  segments.length = nonEmpty;
  return { segments, tailFrom: tail ? nonEmpty : -1 };
}

/** `[^…]+` or `[^…]*` over ASCII characters and escaped punctuation: takes whole runs either way. */
const NEGATED_RUN = /^\[\^(?:[^\\\]]|\\[^a-zA-Z0-9])*\][+*]$/;
/** Atoms that may match a non-ASCII character, so one byte of it: `.`, `[^`, `\D`, `\W`, `\S`, `\s`, … */
const WIDE_ATOM = /\.|\[\^|\\[DWSsPpXuxc]/;

/** See {@link CompiledRoute.matchesBytes}. */
function byteSensitive(tokens: readonly Token[]): boolean {
  let afterVariable = false;
  for (const t of tokens) {
    if (t.kind === 'text') {
      afterVariable = false;
      continue;
    }
    if (afterVariable && t.separator === '') return true;
    if (!NEGATED_RUN.test(t.regex) && WIDE_ATOM.test(t.regex)) return true;
    afterVariable = true;
  }
  return false;
}

/**
 * Compiles a route (Symfony `RouteCompiler::compile`): tokenises path and host, builds the
 * regular expressions and finds the static prefix. A localized route (`Route.isLocalized`) is
 * compiled with its locale in place of `{_locale}` in the path and without its `_locale`
 * requirement, as Symfony's compiler changes such a route (see {@link CompiledRoute.path}).
 * @throws InvalidRouteError for a variable that starts with a digit, is longer than 32
 *   characters, appears twice, is `_fragment` in the path, or has a requirement that is not a
 *   valid regular expression; for a route without the `utf8` option whose path or host holds
 *   non-ASCII text, or whose requirement does (or uses `\p{…}`, `\X`, `\x{…}`): Symfony's
 *   LogicException messages, which name the `utf8` option
 */
export function compileRoute(route: Route): CompiledRoute {
  let path = route.path;
  let requirements: Readonly<Record<string, string>> = route.requirements;
  if (route.isLocalized()) {
    // Symfony: the locale in place of `{_locale}`, and the requirement dropped
    const locale = route.defaults._locale as string;
    path = path.split('{_locale}').join(locale);
    const { _locale: _dropped, ...rest } = route.requirements;
    requirements = rest;
  }
  let hostRegex: RegExp | null = null;
  let hostTokens: Token[] = [];
  let hostVariables: string[] = [];
  if (route.host !== '') {
    // Symfony compiles the host before it localizes the path: with the `_locale` requirement
    const host = compilePattern(route, route.requirements, route.path, route.host, true);
    hostRegex = mustCompile(`^${host.source}$`, 'si', route.host, route.utf8);
    hostTokens = host.tokens;
    hostVariables = host.variables;
  }
  const compiled = compilePattern(route, requirements, path, path, false);
  const pathVariables = compiled.variables;
  if (pathVariables.includes('_fragment')) {
    throw new InvalidRouteError(path, `Route pattern "${path}" cannot contain "_fragment" as a path ` +
      `parameter.`);
  }
  for (const v of pathVariables) {
    if (hostVariables.includes(v)) {
      throw new InvalidRouteError(path, `Route pattern "${path}" cannot reference variable name "${v}" ` +
        `more than once.`);
    }
  }
  let body = compiled.source;
  let hasTrailingSlash = false;
  if (path !== '/') {
    hasTrailingSlash = body.endsWith('/') && !body.endsWith('\\/');
    if (hasTrailingSlash) body = body.slice(0, -1);
    body += '/?';
  }
  const matchRegex = mustCompile(`^${body}$`, 's', path, route.utf8);
  const { segments, tailFrom } = indexSegmentsOf(compiled.tokens, compiled.firstOptional, matchRegex.flags);
  return {
    path,
    staticPrefix: staticPrefixOf(route, compiled.tokens),
    regex: mustCompile(`^${compiled.source}$`, 's', path, route.utf8),
    matchRegex,
    tokens: compiled.tokens,
    pathVariables,
    hostRegex,
    hostTokens,
    hostVariables,
    variables: [...hostVariables, ...pathVariables],
    hasTrailingSlash,
    hasTrailingVar: /\{[\w\u0080-\uffff]+\}\/?$/.test(path),
    indexSegments: segments,
    tailFrom,
    utf8: route.utf8,
    matchesBytes: !route.utf8 && byteSensitive(compiled.tokens),
  };
}

/**
 * Compiles a route of a collection (cached on the route) for the matcher or the generator built
 * from the collection: Symfony's router compiles every route then, when it dumps its matcher and
 * generator, not when it loads the route files.
 * @param name - the route's name in the collection
 * @param route - the route
 * @returns the compiled route
 * @throws InvalidRouteError naming the route (`Route "<name>" is invalid: <reason>`), the error of
 *   the route alone as `cause`
 */
export function compileNamed(name: string, route: Route): CompiledRoute {
  try {
    return route.compile();
  } catch (error) {
    if (!(error instanceof InvalidRouteError) || error.routeOrPath === name) throw error;
    throw new InvalidRouteError(name, error.reason, { cause: error });
  }
}
