/**
 * Runs @api-platform/api-doc-parser (an ES module, which jest's CommonJS runtime cannot load)
 * on a running API and prints what it understood as JSON on stdout: resources, fields (type,
 * required, reference, cardinality), operations and, for Hydra, the search parameters.
 * Usage: node apiDocParser.mjs hydra|openapi <url>
 * The url is the entrypoint (Hydra) or the OpenAPI document. On failure: the parser's error on
 * stderr, exit code 1.
 */
import { parseHydraDocumentation, parseOpenApi3Documentation } from '@api-platform/api-doc-parser';

const [kind, url] = process.argv.slice(2);

const field = (f) => ({
  name: f.name,
  type: f.type ?? null,
  range: f.range ?? null,
  required: f.required ?? false,
  nullable: f.nullable ?? null,
  reference: f.reference?.name ?? null,
  embedded: f.embedded?.name ?? null,
  maxCardinality: f.maxCardinality ?? null,
  description: f.description ?? '',
});

async function resourceOf(r) {
  const parameters = kind === 'hydra' ? await r.getParameters() : (r.parameters ?? []);
  return {
    name: r.name,
    url: r.url,
    id: r.id ?? null,
    title: r.title ?? null,
    fields: (r.fields ?? []).map(field),
    readable: (r.readableFields ?? []).map((f) => f.name),
    writable: (r.writableFields ?? []).map((f) => f.name),
    operations: (r.operations ?? [])
      .map((o) => ({ name: o.name, type: o.type, method: o.method ?? null, types: o.types ?? null })),
    parameters: parameters.map((p) => ({ variable: p.variable, range: p.range ?? null, required: p.required })),
  };
}

try {
  const parse = kind === 'hydra' ? parseHydraDocumentation : parseOpenApi3Documentation;
  const { api, status } = await parse(url);
  const resources = [];
  for (const r of api.resources ?? []) resources.push(await resourceOf(r));
  process.stdout.write(JSON.stringify({ status, title: api.title ?? null, entrypoint: api.entrypoint, resources }));
} catch (e) {
  const error = e?.error ?? e;
  process.stderr.write(`${error?.message ?? JSON.stringify(error)}${e?.status ? ` (status ${e.status})` : ''}\n`);
  process.exitCode = 1;
}
