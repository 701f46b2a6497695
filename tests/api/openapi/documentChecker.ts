/**
 * Checks bodies against the schemas an OpenAPI document gives an operation (ajv, draft 2020-12,
 * the document's components resolved), for the tests that validate the running API's answers.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Schema = Record<string, unknown>;

/** The parts of the document the checks read. */
export interface Doc {
  paths: Record<string, Record<string, {
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  }>>;
  components: { schemas: Record<string, Schema & { properties?: Record<string, Schema>; required?: string[] }> };
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
