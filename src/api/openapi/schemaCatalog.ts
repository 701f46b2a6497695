import type { ApiDescription, OperationDescription, ResourceDescription } from '../describeApi';
import { kindDefinition } from '../property/propertyKinds';
import { inGroups, linksTo } from '../serializer/serializationContext';
import type { PropertyMetadata } from '../state/types';
import { definitionName } from './definitionName';
import { embedInputs, embedOutputs } from './embeddableSchemas';
import {
  inputSchemas, outputSchemas, type EmbedRelation, type JsonSchema, type ResourceSchemaNames, type SchemaVariant,
} from './resourceSchemas';

/**
 * The schemas of an OpenAPI document, one per resource, format and serializer context, as API
 * Platform 3.4's `SchemaFactory` builds them: each operation's responses reference the schema of
 * its `normalizationContext` (`Book.jsonld-book.read`), its request body the schema of its
 * `denormalizationContext` (`Book-book.write`); a relation the groups embed is a `$ref` to its
 * target's schema under the same groups (`Author.jsonld-book.read`), built on first use.
 * @module
 */

/** What the catalog knows of one operation's contexts, for a format's `docs`. */
export interface OperationSchemas {
  readonly names: ResourceSchemaNames;
  /** The plain output under the normalization groups, every relation an IRI (JSON:API's attributes). */
  readonly flatOutput: JsonSchema;
  /** A POST or PUT body and a merge patch under the denormalization groups, every relation an IRI. */
  readonly flatInput: JsonSchema;
  readonly flatPatch: JsonSchema;
  readonly normalizationGroups?: ReadonlySet<string>;
  readonly denormalizationGroups?: ReadonlySet<string>;
}

/** The schemas of an API's operations, built on demand into one `components.schemas`. */
export interface SchemaCatalog {
  /**
   * Builds (once) the output schemas of every operation, then their body schemas (so that an
   * input under groups no output uses keeps the plain name, `Book-book.write`, and one whose name
   * an output took becomes `Book.input-…`).
   */
  readonly prepare: () => void;
  /** The schemas of an operation's contexts; {@link SchemaCatalog.prepare} first. */
  readonly operation: (resource: ResourceDescription, op: OperationDescription) => OperationSchemas;
  /** Adds a component once (the first definition of a name wins); returns a `$ref` to it. */
  readonly define: (name: string, schema: () => JsonSchema) => JsonSchema;
}

/** A `$ref` to a component. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const groupSet = (groups: readonly string[] | undefined): ReadonlySet<string> | undefined =>
  groups === undefined ? undefined : new Set(groups);

interface OutputNames {
  readonly output: string;
  readonly jsonld: string;
  readonly jsonhal: string;
  readonly flat: JsonSchema;
}
interface InputNames {
  readonly input: string;
  readonly patch: string;
  readonly flat: JsonSchema;
  readonly flatPatch: JsonSchema;
}

/**
 * A catalog writing into `components` (which may hold other schemas, e.g. the errors').
 * @param api - from `describeApi`
 * @param components - the document's `components.schemas`, filled in place
 */
export function createSchemaCatalog(api: ApiDescription, components: Record<string, JsonSchema>): SchemaCatalog {
  const byName = new Map(api.resources.map((r) => [r.shortName, r]));
  const outputs = new Map<string, OutputNames>();
  const inputs = new Map<string, InputNames>();
  const cycles = new Map<string, boolean>();
  const key = (r: ResourceDescription, groups: ReadonlySet<string> | undefined): string =>
    JSON.stringify([r.shortName, groups === undefined ? null : [...groups]]);
  const target = (p: PropertyMetadata): ResourceDescription | undefined =>
    (kindDefinition(p.kind).link && p.relation !== undefined ? byName.get(p.relation) : undefined);

  /** The relations the groups embed (readable links) or take as nested documents (writable links). */
  const links = (r: ResourceDescription, groups: ReadonlySet<string> | undefined, side: 'read' | 'write') =>
    r.metadata.properties.filter((p) => {
      const t = target(p);
      if (t === undefined || !inGroups(p, { groups })) return false;
      if (side === 'read' ? p.writeOnly : p.readOnly) return false;
      return linksTo(t.metadata.properties, { groups });
    });

  /** Whether the readable links under the groups form a cycle (nested documents may then be IRIs). */
  const cyclic = (groups: ReadonlySet<string> | undefined): boolean => {
    const k = JSON.stringify(groups === undefined ? null : [...groups]);
    let found = cycles.get(k);
    if (found !== undefined) return found;
    const state = new Map<string, 'open' | 'done'>();
    const visit = (r: ResourceDescription): boolean => {
      const s = state.get(r.shortName);
      if (s !== undefined) return s === 'open';
      state.set(r.shortName, 'open');
      const loops = links(r, groups, 'read').some((p) => visit(target(p)!));
      state.set(r.shortName, 'done');
      return loops;
    };
    found = api.resources.some(visit);
    cycles.set(k, found);
    return found;
  };

  const put = (name: string, schema: JsonSchema): void => {
    if (!(name in components)) components[name] = schema;
  };
  // the value objects' output components: an input under the same groups takes `Address.input-…`
  const sentObjects = new Set<string>();
  const putSent = (name: string, schema: JsonSchema): void => { sentObjects.add(name); put(name, schema); };
  const taken = (name: string): boolean => sentObjects.has(name);

  const output = (r: ResourceDescription, groups: ReadonlySet<string> | undefined): OutputNames => {
    const k = key(r, groups);
    const known = outputs.get(k);
    if (known !== undefined) return known;
    const names = {
      output: definitionName(r.shortName, undefined, groups),
      jsonld: definitionName(r.shortName, 'jsonld', groups),
      jsonhal: definitionName(r.shortName, 'jsonhal', groups),
    };
    // registered before the properties are built: a cycle of embedded relations ends on the name
    const placeholder = { ...names, flat: {} };
    outputs.set(k, placeholder);
    const readable = new Set(links(r, groups, 'read'));
    const mayBeIri = cyclic(groups);
    const embed: EmbedRelation = (p) => {
      if (!readable.has(p)) return undefined;
      const t = output(target(p)!, groups);
      const of: Record<Exclude<SchemaVariant, 'input'>, string> = {
        output: t.output, jsonld: t.jsonld, jsonhal: t.jsonhal,
      };
      return { ref: (v) => schemaRef(of[v as keyof typeof of]), mayBeIri };
    };
    const s = embedOutputs(r.metadata.properties, outputSchemas(r, groups, embed), groups, putSent);
    put(names.output, { ...s.output, description: r.description });
    put(names.jsonld, s.jsonld);
    put(names.jsonhal, s.jsonhal);
    const done = { ...names, flat: s.flat };
    outputs.set(k, done);
    return done;
  };

  const input = (r: ResourceDescription, groups: ReadonlySet<string> | undefined): InputNames => {
    const k = key(r, groups);
    const known = inputs.get(k);
    if (known !== undefined) return known;
    const plain = definitionName(r.shortName, undefined, groups);
    const names = {
      // the plain name unless an output holds it (`Book` without groups: `Book.input`)
      input: plain in components ? definitionName(r.shortName, 'input', groups) : plain,
      patch: definitionName(r.shortName, 'patch', groups),
    };
    const flat = embedInputs(r.metadata.properties, inputSchemas(r, groups), groups, put, taken);
    const placeholder = { ...names, flat: flat.input, flatPatch: flat.patch };
    inputs.set(k, placeholder);
    put(names.input, {});
    const writable = new Set(links(r, groups, 'write'));
    const embed: EmbedRelation = (p) => (writable.has(p)
      ? { ref: () => schemaRef(input(target(p)!, groups).input), mayBeIri: false } : undefined);
    const s = embedInputs(r.metadata.properties, inputSchemas(r, groups, embed), groups, put, taken);
    components[names.input] = { ...s.input, description: `A ${r.shortName} as a client writes it.` };
    const patch = `A merge patch of a ${r.shortName} (RFC 7386): the properties to change.`;
    put(names.patch, { ...s.patch, description: patch });
    return placeholder;
  };

  let prepared = false;
  return {
    prepare: () => {
      if (prepared) return;
      prepared = true;
      for (const r of api.resources) for (const op of r.operations) output(r, groupSet(op.normalizationGroups));
      for (const r of api.resources) {
        for (const op of r.operations) if (op.input) input(r, groupSet(op.denormalizationGroups));
      }
    },
    operation: (r, op) => {
      const normalizationGroups = groupSet(op.normalizationGroups);
      const denormalizationGroups = groupSet(op.denormalizationGroups);
      const out = output(r, normalizationGroups);
      // an operation without a body names no body schema (`input`, `patch`: the output's, unused)
      const into = op.input ? input(r, denormalizationGroups)
        : { input: out.output, patch: out.output, flat: {}, flatPatch: {} };
      return {
        names: {
          output: out.output, jsonld: out.jsonld, jsonhal: out.jsonhal, input: into.input, patch: into.patch,
        },
        flatOutput: out.flat,
        flatInput: into.flat,
        flatPatch: into.flatPatch,
        ...(normalizationGroups !== undefined ? { normalizationGroups } : {}),
        ...(denormalizationGroups !== undefined ? { denormalizationGroups } : {}),
      };
    },
    define: (name, schema) => {
      if (!(name in components)) components[name] = schema();
      return schemaRef(name);
    },
  };
}
