/**
 * For the tests that validate the running API's answers: serves resources' API and reads both its
 * documents; checks bodies against the schemas an OpenAPI document gives an operation (ajv, draft
 * 2020-12, the document's components resolved).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { apiRoutes, type Resource } from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';

export type Schema = Record<string, unknown>;

/** The parts of the document the checks read. */
export interface Doc {
  paths: Record<string, Record<string, {
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  }>>;
  components: { schemas: Record<string, Schema & { properties?: Record<string, Schema>; required?: string[] }> };
}

/** The Hydra documentation's classes, as the checks read them. */
export interface HydraDoc {
  'hydra:supportedClass': Array<Record<string, unknown>>;
}

/**
 * A kernel serving `resources` in JSON-LD, HAL, JSON and JSON:API (not in debug mode), and its
 * two documents: OpenAPI (`/api/docs.json`) and Hydra (`/api/docs.jsonld`).
 * @throws when either document is not a 200
 */
export async function servedDocuments(
  resources: readonly Resource[],
): Promise<{ kernel: Kernel; doc: Doc; hydra: HydraDoc }> {
  const kernel = createKernel({
    routes: apiRoutes({ resources, formats: ['jsonld', 'jsonhal', 'json', 'jsonapi'] }),
    debug: false,
  });
  const doc = (await request(kernel).get('/api/docs.json').expect(200)).body as Doc;
  const hydra = (await request(kernel).get('/api/docs.jsonld').expect(200)).body as HydraDoc;
  return { kernel, doc, hydra };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('iri-reference', /^[^\s]*$/);

/**
 * @param doc - a getter of the document (read once the API answered it)
 * @returns `errorsOf(schema, body)`: [] when valid, else one line per error; `responseSchema`
 *   and `requestSchema`: the schema the document gives an operation (path as the document lists
 *   it), status and media type, throwing when it gives none
 */
export function documentChecker(doc: () => Doc) {
  return {
    errorsOf: (schema: Schema, body: unknown): string[] => {
      const check = ajv.compile({ ...schema, components: doc().components });
      return check(body) ? []
        : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    },
    responseSchema: (path: string, method: string, status: number, type: string): Schema => {
      const schema = doc().paths[path][method].responses[status]?.content?.[type]?.schema;
      if (schema === undefined) throw new Error(`no ${type} schema for ${method} ${path} ${status}`);
      return schema;
    },
    requestSchema: (path: string, method: string, type: string): Schema => {
      const schema = doc().paths[path][method].requestBody?.content[type]?.schema;
      if (schema === undefined) throw new Error(`no ${type} body for ${method} ${path}`);
      return schema;
    },
  };
}
