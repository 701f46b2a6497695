import type { Resource, ResolvedOperation } from '../resource/defineResource';
import type { PropertyMetadata } from '../state/types';
import { type ApiPaths, type RequestBase, vocabulary } from './ApiContext';
import { kindDefinition } from '../property/propertyKinds';
import { entrypointKey, HYDRA } from './jsonld';
import { inGroups, type SerializationGroups } from './serializationContext';
import { classIri, equivalentIris, propertyIri, type TypedResource } from '../resource/rdfVocabulary';

/**
 * The Hydra API documentation (`/api/docs.jsonld`), as API Platform 3.4's
 * `Hydra\Serializer\DocumentationNormalizer` writes it: a `hydra:Class` per resource with its
 * supported properties (range, `owl:maxCardinality 1` on a to-one relation, required, readable,
 * writeable per the resource's serialization groups, the schema's `.describe()` as
 * `hydra:description`) and item operations (typed
 * `schema:FindAction`, `schema:ReplaceAction`, `schema:DeleteAction`; PATCH a plain
 * `hydra:Operation`); the entrypoint class, whose properties carry the collection operations
 * (`schema:FindAction`, `schema:CreateAction`) and name the member class
 * (`owl:equivalentClass`); the constraint violation classes. What `@api-platform/api-doc-parser`
 * (API Platform Admin, the client generator) reads.
 * @module
 */

/** Namespaces and typed terms of the documentation's context (API Platform's `getContext`). */
const NAMESPACES = {
  hydra: HYDRA,
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xmls: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  schema: 'http://schema.org/',
  domain: { '@id': 'rdfs:domain', '@type': '@id' },
  range: { '@id': 'rdfs:range', '@type': '@id' },
  subClassOf: { '@id': 'rdfs:subClassOf', '@type': '@id' },
  expects: { '@id': 'hydra:expects', '@type': '@id' },
  returns: { '@id': 'hydra:returns', '@type': '@id' },
  // the entrypoint is a link, not a string: hydra-validator reports a literal
  'hydra:entrypoint': { '@id': 'hydra:entrypoint', '@type': '@id' },
} as const;

/** The `@type` and `hydra:title` of each operation kind (API Platform's `getHydraOperation`). */
function operationType(op: ResolvedOperation, shortName: string): { type: string | string[]; title: string } {
  const typed = (action: string): string[] => ['hydra:Operation', `schema:${action}`];
  switch (op.kind) {
    case 'GetCollection':
      return { type: typed('FindAction'), title: `Retrieves the collection of ${shortName} resources.` };
    case 'Get': return { type: typed('FindAction'), title: `Retrieves a ${shortName} resource.` };
    case 'Patch': return { type: 'hydra:Operation', title: `Updates the ${shortName} resource.` };
    case 'Post': return { type: typed('CreateAction'), title: `Creates a ${shortName} resource.` };
    case 'Put': return { type: typed('ReplaceAction'), title: `Replaces the ${shortName} resource.` };
    case 'Delete': return { type: typed('DeleteAction'), title: `Deletes the ${shortName} resource.` };
  }
}

/** One `hydra:Operation`, keys sorted as API Platform's `ksort` leaves them. */
function hydraOperation(op: ResolvedOperation, r: Resource): Record<string, unknown> {
  const { type, title } = operationType(op, r.shortName);
  const writes = op.kind === 'Post' || op.kind === 'Put' || op.kind === 'Patch';
  const returns = op.kind === 'Delete' ? 'owl:Nothing'
    : op.kind === 'GetCollection' ? 'hydra:Collection' : `#${r.shortName}`;
  return {
    '@type': type,
    ...(writes ? { expects: `#${r.shortName}` } : {}),
    'hydra:method': op.method,
    'hydra:title': title,
    'rdfs:label': title,
    returns,
  };
}

/** Whether an operation is documented on the entrypoint's property (collection operations and POST). */
const onCollection = (op: ResolvedOperation): boolean => op.kind === 'GetCollection' || op.kind === 'Post';

/**
 * The properties the documentation lists and what a client may do with each, as API Platform's
 * DocumentationNormalizer reads the resource's serializer contexts: with groups, only the
 * properties in the normalization or the denormalization groups; readable when not writeOnly and
 * in the normalization groups (any without), writeable when not readOnly and in the
 * denormalization groups (any without). A property's `security` does not hide it.
 */
function documentedProperties(r: Resource): { p: PropertyMetadata; readable: boolean; writeable: boolean }[] {
  const read: SerializationGroups = r.normalizationContext ?? {};
  const write: SerializationGroups = r.denormalizationContext ?? {};
  const listed = (p: PropertyMetadata): boolean => (read.groups === undefined && write.groups === undefined)
    || (read.groups !== undefined && inGroups(p, read)) || (write.groups !== undefined && inGroups(p, write));
  return r.metadata.properties.filter(listed).map((p) => ({
    p, readable: !p.writeOnly && inGroups(p, read), writeable: !p.readOnly && inGroups(p, write),
  }));
}

/**
 * A property's Hydra `range`: a relation's is its target's `types` when it has some (one: a
 * string; several: an array; API Platform's `getRange`), else its kind's (`#Author`, `xmls:string`).
 */
function range(p: PropertyMetadata, resources: ApiPaths['resources']): string | readonly string[] | undefined {
  const types = p.relation === undefined ? undefined : resources.get(p.relation)?.types;
  if (types === undefined) return kindDefinition(p.kind).hydraRange(p);
  return types.length === 1 ? types[0] : types;
}

/** A property of a class (a resource's, or an embeddable's, which has no `types`). */
function supportedProperty(
  r: TypedResource, { p, readable, writeable }: { p: PropertyMetadata; readable: boolean; writeable: boolean },
  resources: ApiPaths['resources'],
): Record<string, unknown> {
  const relation = kindDefinition(p.kind).link;
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      // the property's `iris`, the resource's first `types` (API Platform's getProperty)
      '@id': propertyIri(p, r.shortName, '#'),
      '@type': relation ? 'hydra:Link' : 'rdf:Property',
      'rdfs:label': p.name,
      domain: classIri(r),
      // every relation holds one IRI: a to-one relation (API Platform's isSingleRelation)
      ...(relation ? { 'owl:maxCardinality': 1 } : {}),
      range: range(p, resources),
      ...(p.iris !== undefined && p.iris.length > 1 ? { 'owl:equivalentProperty': equivalentIris(p) } : {}),
    },
    'hydra:title': p.name,
    // what a client must send: never a property it cannot write, nor one that may be null or absent
    'hydra:required': !p.nullable && writeable,
    'hydra:readable': readable,
    'hydra:writeable': writeable,
    ...(p.description !== undefined ? { 'hydra:description': p.description } : {}),
  };
}

function supportedClass(r: Resource, resources: ApiPaths['resources']): Record<string, unknown> {
  return {
    '@id': classIri(r),
    '@type': 'hydra:Class',
    'rdfs:label': r.shortName,
    'hydra:title': r.shortName,
    'hydra:supportedProperty': documentedProperties(r).map((d) => supportedProperty(r, d, resources)),
    'hydra:supportedOperation': r.operations.filter((op) => !onCollection(op)).map((op) => hydraOperation(op, r)),
    'hydra:description': r.description,
  };
}

/**
 * A `hydra:Class` per embeddable value object the resources hold (`#Address`, the `@type` JSON-LD
 * writes on it, which the context's `@vocab` resolves here), with its fields as supported
 * properties; the owner's property has it as range. API Platform 3.4 lists resource classes only
 * (its `getRange` gives a non-resource object no range), which leaves that `@type` undocumented; a
 * resource of the same short name keeps its class.
 */
function embeddableClasses(
  resources: readonly Resource[], byName: ApiPaths['resources'],
): Record<string, unknown>[] {
  const taken = new Set(resources.map((r) => r.shortName));
  const classes = new Map<string, Record<string, unknown>>();
  for (const p of resources.flatMap((r) => r.metadata.properties)) {
    const e = p.embeddable;
    if (e === undefined || taken.has(e.name) || classes.has(e.name)) continue;
    classes.set(e.name, {
      '@id': `#${e.name}`,
      '@type': 'hydra:Class',
      'rdfs:label': e.name,
      'hydra:title': e.name,
      'hydra:supportedProperty': e.fields.map((f) => supportedProperty({ shortName: e.name }, {
        p: f, readable: !f.writeOnly, writeable: !f.readOnly,
      }, byName)),
      'hydra:supportedOperation': [],
      'hydra:description': `${e.name}, an embeddable value object (no identifier: it lives inside its owner).`,
    });
  }
  return [...classes.values()];
}

/** The entrypoint's property of a resource's collection, or undefined without collection operations. */
function entrypointProperty(r: Resource): Record<string, unknown> | undefined {
  const operations = r.operations.filter(onCollection);
  if (operations.length === 0) return undefined;
  const label = `The collection of ${r.shortName} resources`;
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#Entrypoint/${entrypointKey(r.shortName)}`,
      '@type': 'hydra:Link',
      domain: '#Entrypoint',
      'rdfs:label': label,
      'rdfs:range': [
        { '@id': 'hydra:Collection' },
        {
          'owl:equivalentClass': {
            'owl:onProperty': { '@id': 'hydra:member' },
            'owl:allValuesFrom': { '@id': classIri(r) },
          },
        },
      ],
      'hydra:supportedOperation': operations.map((op) => hydraOperation(op, r)),
    },
    'hydra:title': label,
    'hydra:readable': true,
    'hydra:writeable': false,
  };
}

/** A read-only string property of one of the error classes. */
function errorProperty(domain: string, name: string, range: string, description: string): Record<string, unknown> {
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#${domain}/${name}`, '@type': 'rdf:Property', 'rdfs:label': name, domain: `#${domain}`, range,
    },
    'hydra:title': name,
    'hydra:description': description,
    'hydra:readable': true,
    'hydra:writeable': false,
  };
}

/** The classes API Platform adds after the resources': the entrypoint and the constraint violations. */
function builtInClasses(resources: readonly Resource[]): Record<string, unknown>[] {
  return [
    {
      '@id': '#Entrypoint',
      '@type': 'hydra:Class',
      'hydra:title': 'The API entrypoint',
      'hydra:supportedProperty': resources.map(entrypointProperty).filter((p) => p !== undefined),
      'hydra:supportedOperation': {
        '@type': 'hydra:Operation', 'hydra:method': 'GET', 'rdfs:label': 'The API entrypoint.', returns: '#EntryPoint',
      },
    },
    {
      '@id': '#ConstraintViolation',
      '@type': 'hydra:Class',
      'hydra:title': 'A constraint violation',
      'hydra:supportedProperty': [
        errorProperty('ConstraintViolation', 'propertyPath', 'xmls:string', 'The property path of the violation'),
        errorProperty('ConstraintViolation', 'message', 'xmls:string', 'The message associated with the violation'),
      ],
    },
    {
      '@id': '#ConstraintViolationList',
      '@type': 'hydra:Class',
      subClassOf: 'hydra:Error',
      'hydra:title': 'A constraint violation list',
      'hydra:supportedProperty': [
        errorProperty('ConstraintViolationList', 'violations', '#ConstraintViolation', 'The violations'),
      ],
    },
  ];
}

/**
 * The Hydra API documentation (see the module's description).
 * @param title - `hydra:title`
 * @returns the JSON-LD document: `@context` (API Platform's, `hydra:entrypoint` typed as an IRI),
 *   `@id`, `@type` `hydra:ApiDocumentation`, `hydra:title`, `hydra:entrypoint`, `hydra:supportedClass`
 */
export function hydraDocumentation(paths: ApiPaths, base: RequestBase, title: string): Record<string, unknown> {
  const resources = [...paths.resources.values()];
  return {
    '@context': { '@vocab': vocabulary(paths, base), ...NAMESPACES },
    '@id': `${base.baseUrl}${paths.docs}`,
    '@type': 'hydra:ApiDocumentation',
    ...(title !== '' ? { 'hydra:title': title } : {}),
    'hydra:entrypoint': `${base.baseUrl}${paths.entrypoint}`,
    'hydra:supportedClass': [
      ...resources.map((r) => supportedClass(r, paths.resources)), ...embeddableClasses(resources, paths.resources),
      ...builtInClasses(resources),
    ],
  };
}
