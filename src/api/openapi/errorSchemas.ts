import type { JsonSchema } from './resourceSchemas';

/**
 * The error bodies the API sends, as OpenAPI components: problem details (RFC 9457 §3,
 * `application/problem+json`) for every format, with `violations` for a 422; a JSON-LD client's
 * carry API Platform 3.4's Hydra keys too (`@context`, `@id`, `@type`, `hydra:title`,
 * `hydra:description`).
 * @module
 */

/** The problem details media type (RFC 9457 §3). */
export const PROBLEM = 'application/problem+json';

/** Component names. */
export const ERROR_SCHEMAS = Object.freeze({
  error: 'Error',
  violations: 'ConstraintViolationList',
});

/** What each status means, for its OpenAPI response description. */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = Object.freeze({
  400: 'Bad request: a malformed body, an unknown filter, a bad filter value or page.',
  401: 'Unauthorized: no or wrong credentials. The `WWW-Authenticate` header says how to authenticate; the '
    + 'HTTP Basic challenge itself has an empty body.',
  403: 'Forbidden: the credentials do not grant the operation.',
  404: 'Not found: no item has this id (or the id is not one the route accepts: the router\'s 404).',
  406: 'Not acceptable: none of the API formats is acceptable (the Accept header).',
  409: 'Conflict: other items still refer to this one (Delete), or another client created the item meanwhile (Put).',
  412: 'Precondition failed: the If-Match tag is not the item\'s current ETag (or no item has this id), or '
    + 'If-None-Match names it; nothing was changed.',
  413: 'Content too large: the body is over the size limit.',
  415: 'Unsupported media type: the Content-Type is not one the operation reads.',
  422: 'Unprocessable content: the body breaks the schema (the violations say where).',
});

const VIOLATIONS: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    properties: {
      propertyPath: { type: 'string', description: 'The property at fault, e.g. `title` (empty: the whole body).' },
      message: { type: 'string' },
      code: { type: ['string', 'null'], description: 'A stable code for the constraint.' },
    },
    required: ['propertyPath', 'message'],
  },
};

const PROBLEM_PROPERTIES: Record<string, JsonSchema> = {
  type: { type: 'string', description: 'A URI reference naming the problem type: `/errors/<status>`, '
    + '`/validation_errors/<code>` for a 422.' },
  title: { type: 'string', description: 'A short summary of the problem type.' },
  status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code.' },
  detail: { type: 'string', description: 'What went wrong, for this occurrence.' },
  instance: { type: 'string', description: 'A URI reference of this occurrence.' },
};

/** The keys a JSON-LD client's errors carry besides RFC 9457's. */
const HYDRA_PROPERTIES: Record<string, JsonSchema> = {
  '@context': { type: 'string' },
  '@id': { type: 'string' },
  '@type': { type: 'string' },
  'hydra:title': { type: 'string' },
  'hydra:description': { type: 'string', description: 'What went wrong.' },
};

/** The debug mode's stack frames. */
const TRACE: JsonSchema = {
  type: 'array',
  description: 'In debug mode only: the stack frames where the error was thrown.',
  items: {
    type: 'object',
    properties: { function: { type: 'string' }, file: { type: 'string' }, line: { type: 'integer' } },
  },
};

/** The error schemas, by component name. */
export function errorSchemas(): Record<string, JsonSchema> {
  return {
    [ERROR_SCHEMAS.error]: {
      type: 'object',
      description: 'Problem details (RFC 9457).',
      properties: { ...PROBLEM_PROPERTIES, ...HYDRA_PROPERTIES, trace: TRACE },
      required: ['type', 'title', 'status', 'detail'],
    },
    [ERROR_SCHEMAS.violations]: {
      type: 'object',
      description: 'Problem details (RFC 9457) with the constraint violations of the body.',
      properties: { ...PROBLEM_PROPERTIES, ...HYDRA_PROPERTIES, violations: VIOLATIONS, trace: TRACE },
      required: ['type', 'title', 'status', 'detail', 'violations'],
    },
  };
}
