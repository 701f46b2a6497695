import type { JsonSchema } from './resourceSchemas';

/**
 * The error bodies the API sends, as OpenAPI components: problem details (RFC 9457 §3) for
 * every 4xx, with `violations` for a 422 (API Platform's `ConstraintViolationList`, which in
 * JSON-LD also carries `@context`, `@id`, `@type`).
 * @module
 */

/** The media types an error is sent in: problem details, and JSON-LD for a JSON-LD client. */
export const ERROR_TYPES: readonly string[] = ['application/problem+json', 'application/ld+json', 'application/json'];

/** Component names. */
export const ERROR_SCHEMAS = Object.freeze({ error: 'Error', violations: 'ConstraintViolationList' });

/** What each status means, for its OpenAPI response description. */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = Object.freeze({
  400: 'Bad request: a malformed body, an unknown filter, a bad filter value or page.',
  401: 'Unauthorized: no or wrong credentials (the `WWW-Authenticate` header says how to authenticate).',
  403: 'Forbidden: the credentials do not grant the operation.',
  404: 'Not found: no item has this id.',
  406: 'Not acceptable: none of the API formats is acceptable (the Accept header).',
  409: 'Conflict: other items still refer to this one.',
  412: 'Precondition failed: the If-Match tag is not the item\'s current ETag; nothing was changed.',
  413: 'Content too large: the body is over the size limit.',
  415: 'Unsupported media type: the Content-Type is not one the operation reads.',
  422: 'Unprocessable content: the body breaks the schema (the violations say where).',
});

const hydraKeys: Record<string, JsonSchema> = {
  '@context': { anyOf: [{ type: 'string' }, { type: 'object' }] },
  '@id': { type: 'string' },
  '@type': { type: 'string' },
};

/** The error schemas, by component name. */
export function errorSchemas(): Record<string, JsonSchema> {
  const problem: Record<string, JsonSchema> = {
    type: { type: 'string', description: 'A URI reference naming the problem type (`about:blank` when none).' },
    title: { type: 'string', description: 'A short summary of the problem type.' },
    status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code.' },
    detail: { type: 'string', description: 'What went wrong, for this occurrence.' },
    instance: { type: 'string', description: 'A URI reference of this occurrence.' },
  };
  return {
    [ERROR_SCHEMAS.error]: {
      type: 'object',
      description: 'Problem details (RFC 9457).',
      properties: { ...hydraKeys, ...problem },
      required: ['title', 'status'],
    },
    [ERROR_SCHEMAS.violations]: {
      type: 'object',
      description: 'Problem details (RFC 9457) with the constraint violations of the body.',
      properties: {
        ...hydraKeys,
        ...problem,
        violations: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              propertyPath: {
                type: 'string', description: 'The property at fault, e.g. `title` (empty for the whole body).',
              },
              message: { type: 'string' },
              code: { type: ['string', 'null'], description: 'A stable code for the constraint.' },
            },
            required: ['propertyPath', 'message'],
          },
        },
      },
      required: ['title', 'status', 'violations'],
    },
  };
}
