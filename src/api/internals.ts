/**
 * The request path's pieces the back office reuses (`src/admin`): query-string parsing, IRI and
 * id parsing, property paths, the write path's `toStoredData`. Not a package entry (`package.json`
 * exports `express-kernel/api` and `express-kernel/api/sql` only): what a user declares and plugs
 * in is `express-kernel/api` (issue 25, "the public door stays small"); these may change with the
 * layer's insides. `tests/architecture/dependencies.test.ts` keeps the back office to this door
 * and the public one.
 * @module
 */
export { clientId } from './write/clientId';
export { completeFilters } from './resource/completeFilters';
export { idFromIri } from './serializer/iri';
export { idFromPath } from './resource/identifierSchema';
export { invalidRelation, toStoredData } from './write/inputData';
export { isAtomic } from './state/types';
export { ID_ALREADY_USED } from './state/storeProcessor';
export { isResolvedPath, MAX_RELATIONS_CROSSED, propertyPath } from './state/propertyPath';
export { parseCollectionQuery } from './query/collectionQuery';
export { parseQueryString, type QueryPair } from './query/queryString';
export { plural, snakeCase } from './resource/defineResource';
export { unwrapSchema } from './schema/metadata';
