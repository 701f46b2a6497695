/**
 * fast-check arbitraries for random routing tables and the requests to throw at them.
 */
import fc from 'fast-check';
import type { RouteSpec } from './outcome';

/** Path segments of the brief's alphabet; `#` stands for a fresh variable name. */
export const BASE_SEGMENTS = [
  'a', 'b', 'api', 'books', 'x1',
  '{#}', '{#<\\d+>}', '{#<[a-z]+>}', '{#<.+>}', '{#}.{#}', '{#}-{#}', 'v{#}',
] as const;

/** Requirements that can match the empty string. */
export const EMPTY_MATCHING = ['{#<\\d*>}', '{#<[^/]*>}'] as const;
/** Requirements whose meaning depends on what surrounds the segment, and important variables. */
export const CONTEXT_SENSITIVE = ['{#<x(?!$)>}', '{#<(?<!^)x>}', '{#<(?<=x)\\d+>}', '{!#}', 'x{#<(?<=x)\\d+>}', '{#<[^.]+>}'] as const;

export interface TableOptions {
  /** Extra segment templates (e.g. requirements that match the empty string). */
  extraSegments?: readonly string[];
  /** Route path endings besides '' and '/'. */
  endings?: readonly string[];
  /** Generate hosts, schemes and conditions too. */
  extras?: boolean;
  /** Conditions are functions, unknown to the PHP harness. */
  conditions?: boolean;
  minRoutes?: number;
  maxRoutes?: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

function routePath(segments: string[], optional: string | null, ending: string): string {
  let n = 0;
  const named = segments.map((s) => s.replace(/#/g, () => `v${n++}`));
  let path = '/' + named.join('/');
  if (optional !== null) path += (named.length > 0 ? '/' : '') + optional;
  if (path === '/') return '/';
  return path + ending;
}

export function routeSpecArb(options: TableOptions = {}): fc.Arbitrary<Omit<RouteSpec, 'name'>> {
  const segments = [...BASE_SEGMENTS, ...(options.extraSegments ?? [])];
  const path = fc
    .tuple(
      fc.array(fc.constantFrom(...segments), { minLength: 0, maxLength: 4 }),
      fc.option(fc.constantFrom('{page?1}', '{page<\\d+>?1}'), { freq: 5 }),
      fc.constantFrom('', '', '/', ...(options.endings ?? [])),
    )
    .map(([s, o, e]) => routePath(s, o, e));
  const methods = fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([]) },
    { weight: 6, arbitrary: fc.subarray([...METHODS], { minLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(['HEAD'], ['GET', 'HEAD']) },
  );
  const extras = options.extras ?? false;
  return fc.record(
    {
      path,
      methods,
      schemes: extras ? fc.constantFrom<string[]>([], [], [], [], ['https'], ['http'], ['https', 'http']) : fc.constant([]),
      host: extras ? fc.constantFrom('', '', '', '', '', 'api.example.com', '{sub}.example.com') : fc.constant(''),
      condition: options.conditions
        ? fc.constantFrom<RouteSpec['condition']>(undefined, undefined, undefined, undefined, undefined, undefined, 'method is not PUT', 'path shorter than 8')
        : fc.constant(undefined),
      priority: extras ? fc.constantFrom(0, 0, 0, 0, 0, 0, 1, -1) : fc.constant(0),
    },
    { requiredKeys: ['path'] },
  ).map((r) => {
    const spec: Omit<RouteSpec, 'name'> = { path: r.path };
    if (r.methods !== undefined && r.methods.length > 0) spec.methods = [...r.methods];
    if (r.schemes !== undefined && r.schemes.length > 0) spec.schemes = [...r.schemes];
    if (r.host !== undefined && r.host !== '') spec.host = r.host;
    if (r.condition !== undefined) spec.condition = r.condition;
    if (r.priority !== undefined && r.priority !== 0) spec.priority = r.priority;
    return spec;
  });
}

export function tableArb(options: TableOptions = {}): fc.Arbitrary<RouteSpec[]> {
  return fc
    .array(routeSpecArb(options), { minLength: options.minRoutes ?? 5, maxLength: options.maxRoutes ?? 40 })
    .map((specs) => specs.map((s, i) => ({ name: `r${i}`, ...s })));
}

/** Words a request path is made of: the routes' words, digits, encodings and noise. */
const PATH_WORDS = [
  'a', 'b', 'api', 'books', 'x1', 'v5', '5', '42', '%35', 'abc', 'zz', 'a.b', '5.json', 'a-b', '5-6',
  '', '%2F', 'a%2Fb', '%E9', 'caf%C3%A9', 'A', '%2e',
];
const VALUES = ['5', '42', 'abc', 'x', 'a.b', 'a/b', '%35', '', '5/6', 'a%2Fb', 'é'];

/** How a request path is derived from a route, or made up. */
export type PathRecipe =
  | { from: 'words'; words: string[]; ending: string }
  | { from: 'route'; route: number; values: number[]; ending: 'keep' | 'add /' | 'add //' | 'trim' | '%2F' | 'double'; dropOptional: boolean };

export const pathRecipeArb: fc.Arbitrary<PathRecipe> = fc.oneof(
  fc.record({
    from: fc.constant('words' as const),
    words: fc.array(fc.constantFrom(...PATH_WORDS), { minLength: 0, maxLength: 4 }),
    ending: fc.constantFrom('', '', '/', '//'),
  }),
  {
    weight: 4,
    arbitrary: fc.record({
      from: fc.constant('route' as const),
      route: fc.nat(),
      values: fc.array(fc.nat({ max: VALUES.length - 1 }), { minLength: 6, maxLength: 6 }),
      ending: fc.constantFrom('keep', 'keep', 'add /', 'add //', 'trim', '%2F', 'double'),
      dropOptional: fc.boolean(),
    }),
  },
);

/** Turns a recipe into a raw request path for the given table. */
export function pathFrom(recipe: PathRecipe, table: readonly RouteSpec[]): string {
  if (recipe.from === 'words') return '/' + recipe.words.join('/') + recipe.ending;
  let pattern = table[recipe.route % table.length].path;
  if (recipe.dropOptional) pattern = pattern.replace(/\/?\{page[^}]*\}/, '');
  let k = 0;
  let path = pattern.replace(/\{[^}]+\}/g, () => VALUES[recipe.values[k++ % recipe.values.length]]);
  switch (recipe.ending) {
    case 'add /': path += '/'; break;
    case 'add //': path += '//'; break;
    case 'trim': path = path.replace(/\/+$/, '') || '/'; break;
    case '%2F': path = path.replace(/(.)\//, '$1%2F'); break;
    case 'double': path = path.replace('/', '//'); break;
  }
  return path;
}

export interface RequestSpec {
  path: PathRecipe;
  method: string;
  host: string;
  scheme: string;
}

export const requestArb: fc.Arbitrary<RequestSpec> = fc.record({
  path: pathRecipeArb,
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
  host: fc.constantFrom('localhost', 'localhost', 'api.example.com', 'x.example.com'),
  scheme: fc.constantFrom('http', 'http', 'https'),
});
