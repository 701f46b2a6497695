/**
 * The hypermedia API layer (`express-kernel/api`): resources declared once with a zod schema,
 * served as JSON-LD/Hydra, HAL and JSON by routes in the kernel's routing table. API Platform
 * is to Symfony what this is to the kernel. What it exports is what a user declares and plugs in
 * (resources, operations, filters, formats, providers, processors, stores, errors); the request
 * path's own pieces (query parsing, merge patch, ETags, IRI parsing) stay internal
 * (`tests/package/apiSurface.test.ts`).
 * @module
 */
export {
  relation, toMany, readOnly, writeOnly, text, groups, maxDepth, type PropertyMeta,
} from './schema/relation';
export { embeddable, type EmbeddableOptions } from './schema/embeddable';
export {
  GetCollection, Get, Post, Put, Patch, Delete,
  type OperationKind, type OperationOptions, type OperationDeclaration, type SecurityRule, type PostValidationContext,
} from './resource/operations';
export { link, type Link } from './resource/Link';
export {
  validationGroups, GroupSequence, type ValidationContextOptions, type ValidationGroupList,
} from './write/validationGroups';
export {
  SearchFilter, OrderFilter, RangeFilter, BooleanFilter, DateFilter, ExistsFilter,
  type FilterType, type FilterDeclaration, type QueryParameter, type DateNullStrategy,
} from './resource/filters';
export type { ResolvedFilter } from './resource/filterResolution';
export type {
  PropertySecurityOptions, PropertySecurityContext, PropertyPostDenormalizeContext, PropertySecurityMap,
} from './resource/propertySecurity';
export {
  defineResource, type ResourceOptions, type Resource, type ResolvedOperation,
  type PaginationOptions, type ResolvedPagination,
} from './resource/defineResource';
export type { ResolvedIdentifier } from './resource/identifierSchema';
export {
  describeApi, MERGE_PATCH_TYPE,
  type ApiDescription, type DescribeApiOptions, type ResourceDescription, type OperationDescription,
} from './describeApi';
export type { ApiOptions } from './http/ApiOptions';
export { apiRoutes } from './http/apiRoutes';
export type { ApiRequestState } from './http/ApiRequestState';
export {
  InvalidQueryError, ItemNotFoundError, NotAcceptableError, ConflictError, PreconditionFailedError, ValidationError,
  isValidationError, type Violation,
} from './http/ApiErrors';
export { FormatRegistry } from './format/FormatRegistry';
export type {
  Format, FormatContext, ItemContext, CollectionContext, EntrypointContext, ErrorContext, EncodedError, DecodeContext,
  FormatDocsContext,
} from './format/Format';
export { MemoryState } from './state/MemoryState';
export type { Provider, ProviderFunction, ProviderContext, ProvidedState, UriVariables } from './state/Provider';
export type { Processor, ProcessorFunction, ProcessorContext, ProcessorData } from './state/Processor';
export { storeProvider, StoreProvider } from './state/storeProvider';
export { storeProcessor, StoreProcessor, RelationNotFoundError } from './state/storeProcessor';
export { ApiCollector, type ApiData } from './profiler/ApiCollector';
export type * from './state/types';
export type { ResolvedPropertyPath, PropertyPathProblem } from './state/propertyPath';
export type { CacheHeaders } from './httpCache/cacheHeaders';
export { PurgeFailedError, isPurgeFailedError, type Purger } from './httpCache/Purger';
export { VarnishXKeyPurger, type VarnishXKeyPurgerOptions } from './httpCache/VarnishXKeyPurger';
export {
  createOpenApiDocument, createDocsPage, createDocsRoutes, OPENAPI_MEDIA_TYPE,
  type OpenApiDocument, type OpenApiOptions, type DocsRoutesOptions,
} from './openapi';
