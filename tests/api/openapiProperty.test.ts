/**
 * The demo API driven by its own OpenAPI document: the demo service on real HTTP (127.0.0.1, a
 * temporary SQLite file) serves `/api/docs.json`; fast-check builds requests from it, for every
 * operation, with valid and invalid path ids, query parameters, bodies (a wrong type, a missing
 * property, out of range, a bad format, malformed JSON, an undeclared media type, over the size
 * limit) and conditional headers, as admin, as user and anonymously. For every answer:
 * - no 5xx;
 * - the status is one the document declares for the operation;
 * - the body's media type is one declared for that status, and the body validates against its
 *   schema (ajv, JSON Schema 2020-12 with formats); a status declared without content has none.
 * And every body the document calls valid, sent by an admin to a POST, is created (201).
 *
 * Runs: `FUZZ_RUNS`, else 1,000 with `CI=true`, else 200. `FUZZ_SEED` replays a failure.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { listen, type Listening } from '../helpers/http';
import { invalidValue, validValue, type JsonSchema } from '../helpers/jsonSchemaArbitrary';
import { scaled } from '../helpers/timeScale';

const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI === 'true' ? 1_000 : 200));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

type Media = Record<string, { schema?: JsonSchema }>;
interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Media };
  responses: Record<string, { content?: Media }>;
}
interface OpenApi {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** One request, as generated. */
interface Case {
  method: string;
  path: string;
  operation: Operation;
  user: 'admin' | 'user' | 'none';
  headers: Record<string, string>;
  body?: string;
  /** Every part of the request is valid for the document (the body, when there is one). */
  validBody: boolean;
  why: string[];
}

const CREDENTIALS = { admin: 'admin:admin', user: 'user:user' } as const;
const basic = (user: keyof typeof CREDENTIALS): string => `Basic ${Buffer.from(CREDENTIALS[user]).toString('base64')}`;
/** Stands for a body over the 100 KiB limit in the generated cases (so a counterexample prints short). */
const LARGE = '<a 120 KiB JSON body>';
const largeBody = JSON.stringify({ title: 'x'.repeat(120 * 1024) });
const UNDECLARED_TYPES = ['text/plain', 'application/xml', 'multipart/form-data; boundary=x'];
/** If-Match / If-None-Match values: tags that may or may not be current, any, and no tag at all. */
const CONDITIONS = ['"1"', '"v1"', '*', 'W/"x"', 'garbage'];

let dir: string;
let kernel: DemoKernel;
let server: Listening;
let base: string;
let doc: OpenApi;
/** An author made for this test, never deleted by it: valid bodies name it. */
let authorIri: string;
let ajv: Ajv2020;
const validators = new Map<JsonSchema, ValidateFunction>();

/** Compiles a schema of the document once; `#/components/...` refs resolve in the document. */
function validator(schema: JsonSchema): ValidateFunction {
  let v = validators.get(schema);
  if (v === undefined) {
    v = ajv.compile({ ...schema, components: doc.components });
    validators.set(schema, v);
  }
  return v;
}

/**
 * Whether a body holds a string with surrounding white space: zod's `trim()` has no JSON Schema
 * equivalent, so for the document `"  "` is a valid title while the API trims it to `""` (a 422).
 */
const untrimmed = (json: string | undefined): boolean =>
  json !== undefined && /"(?:\s[^"]*|[^"]*\s)"/.test(json);

/** A value as it goes in a URL or a header. */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-openapi-property-'));
  kernel = createDemoKernel({ debug: false, sqlitePath: path.join(dir, 'demo.sqlite') });
  server = await listen(kernel);
  base = `http://${server.host}:${server.port}`;
  const res = await fetch(`${base}/api/docs.json`);
  expect(res.status).toBe(200);
  doc = await res.json() as OpenApi;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iri-reference', /^[^\s]*$/);
  const created = await fetch(`${base}/api/authors`, {
    method: 'POST',
    headers: { Authorization: basic('admin'), 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ name: 'Property Author' }),
  });
  expect(created.status).toBe(201);
  authorIri = created.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '');
});

afterAll(async () => {
  await server?.close();
  await kernel?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** For filters: IRIs and ids of items that may exist, one that does not, and no IRI at all. */
function iris(): fc.Arbitrary<string> {
  return fc.constantFrom(authorIri, '/api/authors/1', '3', '/api/authors/999999', 'not an IRI', '/api/books/1');
}

/** A parameter's value: valid (mostly) or invalid, with the reason. */
function parameterValue(p: Parameter): fc.Arbitrary<{ value: unknown; valid: boolean; why: string }> {
  const formats = { 'iri-reference': iris() };
  const valid = validValue(p.schema, { root: doc, formats })
    .map((value) => ({ value, valid: true, why: `${p.name} valid` }));
  const bad = invalidValue(p.schema, { root: doc });
  if (bad === undefined) return valid;
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 1, arbitrary: bad.map((b) => ({ value: b.value, valid: false, why: `${p.name}: ${b.reason}` })) },
  );
}

/**
 * The id in an item path: an existing one, any integer, or something that is no id; never empty
 * (`/api/books/` is another path, redirected to the collection, not this operation's), and never
 * `.` or `..`: a client removes those dot-segments, `%2E` included (RFC 3986 §5.2.4, the WHATWG
 * URL parser), so `/api/books/.` is sent as `/api/books/`.
 */
function pathId(p: Parameter): fc.Arbitrary<{ value: string; why: string }> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => ({ value: String(n), why: 'id 1-6' })) },
    { weight: 1, arbitrary: validValue(p.schema).map((v) => ({ value: text(v), why: 'id any' })) },
    { weight: 1, arbitrary: (invalidValue(p.schema) ?? fc.constant({ value: 'abc', reason: 'x' }))
      .map((b) => ({ value: text(b.value), why: `id invalid: ${b.reason}` })) },
  ).filter((id) => id.value !== '' && id.value !== '.' && id.value !== '..');
}

/** A request body: valid, invalid by the schema, malformed, of an undeclared type, or too large. */
function body(content: Media): fc.Arbitrary<{ type: string; text: string; valid: boolean; why: string }> {
  const types = Object.keys(content);
  const schemaOf = (t: string): JsonSchema => content[t].schema ?? {};
  const formats = { 'iri-reference': fc.constant(authorIri) };
  const valid = fc.constantFrom(...types).chain((type) => validValue(schemaOf(type), { root: doc, formats })
    .map((v) => ({ type, text: JSON.stringify(v), valid: true, why: 'body valid' })));
  const invalidOf = (t: string): fc.Arbitrary<{ value: unknown; reason: string }> =>
    invalidValue(schemaOf(t), { root: doc }) ?? fc.constant({ value: 1, reason: 'a number' });
  const invalid = fc.constantFrom(...types).chain((type) => invalidOf(type)
    .map((b) => ({ type, text: JSON.stringify(b.value), valid: false, why: `body invalid: ${b.reason}` })));
  const malformed = fc.tuple(fc.constantFrom(...types), fc.constantFrom('{"title":', '{', '[1,', 'nul', '{"a":1}}', ''))
    .map(([type, t]) => ({ type, text: t, valid: false, why: 'body malformed' }));
  const undeclared = fc.tuple(fc.constantFrom(...UNDECLARED_TYPES), valid)
    .map(([type, v]) => ({ ...v, type, valid: false, why: `body as ${type}` }));
  const large = fc.constantFrom(...types)
    .map((type) => ({ type, text: LARGE, valid: false, why: 'body of 120 KiB' }));
  return fc.oneof(
    { weight: 4, arbitrary: valid }, { weight: 3, arbitrary: invalid }, { weight: 1, arbitrary: malformed },
    { weight: 1, arbitrary: undeclared }, { weight: 1, arbitrary: large },
  );
}

/** Every request to one operation. */
function requests(method: string, template: string, operation: Operation): fc.Arbitrary<Case> {
  const params = operation.parameters ?? [];
  const success = Object.entries(operation.responses).filter(([s]) => s.startsWith('2'))
    .flatMap(([, r]) => Object.keys(r.content ?? {}));
  const accepts = success.length > 0 ? [...new Set(success)] : ['application/ld+json'];
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query');
  const headers = params.filter((p) => p.in === 'header');
  const protectedPath = authorIri;
  return fc.record({
    user: fc.constantFrom<Case['user']>('admin', 'user', 'none'),
    accept: fc.constantFrom(...accepts),
    ids: fc.tuple(...pathParams.map(pathId)),
    query: fc.tuple(...query.map((p) => fc.option(parameterValue(p), { nil: undefined, freq: 3 }))),
    headers: fc.tuple(...headers.map(() => fc.option(fc.constantFrom(...CONDITIONS), { nil: undefined }))),
    body: operation.requestBody === undefined ? fc.constant(undefined) : body(operation.requestBody.content),
  }).map((r) => {
    const why: string[] = [];
    let url = template;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, encodeURIComponent(r.ids[i].value));
      why.push(r.ids[i].why);
    });
    const search = new URLSearchParams();
    query.forEach((p, i) => {
      const v = r.query[i];
      if (v === undefined) return;
      why.push(v.why);
      const values = Array.isArray(v.value) && p.name.endsWith('[]') ? v.value as unknown[] : [v.value];
      for (const item of values) search.append(p.name, text(item));
    });
    const h: Record<string, string> = { Accept: r.accept };
    if (r.user !== 'none') h.Authorization = basic(r.user);
    headers.forEach((p, i) => { if (r.headers[i] !== undefined) h[p.name] = r.headers[i]; });
    if (r.body !== undefined) {
      h['Content-Type'] = r.body.type;
      why.push(r.body.why);
    }
    const qs = search.toString();
    return {
      method: method.toUpperCase(),
      path: qs === '' ? url : `${url}?${qs}`,
      operation,
      user: r.user,
      headers: h,
      ...(r.body !== undefined ? { body: r.body.text } : {}),
      validBody: r.body?.valid === true,
      why,
    };
  }).filter((c) => !(c.method === 'DELETE' && c.path === protectedPath));
}

/** What is wrong with an answer, by the document (empty: nothing). */
function problems(c: Case, status: number, type: string, raw: string): string[] {
  const found: string[] = [];
  if (status >= 500) found.push(`a ${status}`);
  const declared = c.operation.responses[String(status)] ?? c.operation.responses.default;
  if (declared === undefined) {
    return [...found, `status ${status} is not declared (${Object.keys(c.operation.responses).join(', ')})`];
  }
  const content = declared.content;
  if (content === undefined) {
    if (raw !== '') found.push(`status ${status} is declared without content, got ${type}: ${raw.slice(0, 200)}`);
    return found;
  }
  const media = type.split(';')[0].trim().toLowerCase();
  const schema = content[media]?.schema;
  if (!(media in content)) {
    return [...found, `${status} as ${media || 'no type'} (declared: ${Object.keys(content).join(', ')})`];
  }
  if (schema === undefined) return found;
  if (schema.type === 'string') {
    const validateText = validator(schema);
    const text: unknown = raw;
    if (!validateText(text)) {
      found.push(`${status} ${media}: ${ajv.errorsText(validateText.errors)}: ${raw.slice(0, 200)}`);
    }
    return found;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [...found, `${status} ${media}: not JSON: ${raw.slice(0, 200)}`];
  }
  const validate = validator(schema);
  if (!validate(parsed)) {
    found.push(`${status} ${media} breaks its schema: ${ajv.errorsText(validate.errors)}; body ${raw.slice(0, 300)}`);
  }
  return found;
}

describe('the demo API, driven by its OpenAPI document', () => {
  test('the document lists the Book and Author operations', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(ids).toEqual(expect.arrayContaining(['book_list', 'book_create', 'book_show', 'book_delete']));
    expect(ids.length).toBeGreaterThanOrEqual(12);
  });

  test('every answer has a declared status, media type and schema, and never a 5xx', async () => {
    const statuses = new Map<number, number>();
    const all = Object.entries(doc.paths)
      // a path is relative to the document's server (`/api`)
      .flatMap(([p, item]) => Object.entries(item).map(([m, o]) => requests(m, doc.servers[0].url.replace(/\/$/, '') + p, o)));
    await fc.assert(fc.asyncProperty(fc.oneof(...all), async (c) => {
      const res = await fetch(`${base}${c.path}`, {
        method: c.method, headers: c.headers, body: c.body === LARGE ? largeBody : c.body, redirect: 'manual',
      });
      const raw = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const found = problems(c, res.status, res.headers.get('content-type') ?? '', raw);
      expect({ request: `${c.method} ${c.path} as ${c.user} [${c.why.join('; ')}]`, found })
        .toEqual({ request: expect.any(String), found: [] });
      if (c.validBody && c.user === 'admin' && c.method === 'POST' && !untrimmed(c.body)) {
        const answer = { request: `${c.method} ${c.path} ${c.body ?? ''}`, status: res.status, raw };
        expect(answer).toEqual({ request: expect.any(String), status: 201, raw: expect.any(String) });
      }
    }), { numRuns: RUNS, seed: SEED });
    if (process.env.FUZZ_STATS === '1') console.log([...statuses].sort((a, b) => a[0] - b[0]));
    // the run reached the successes and the client errors, not only one kind of answer
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 201, 400, 401, 404]));
  }, scaled(600_000));
});
