/**
 * The API's documentation: the OpenAPI 3.1 document generated from the resources, and the
 * routes serving it (`/api/docs.json`) with the interactive page (`/api/docs`, Swagger UI).
 * @module
 */
export {
  createOpenApiDocument, type OpenApiDocument, type OpenApiOptions, type SecuritySchemeName,
} from './createOpenApiDocument';
export { createDocsPage, createDocsRoutes, OPENAPI_MEDIA_TYPE, type DocsRoutesOptions } from './docsRoutes';
export { resourceSchemas, type JsonSchema, type ResourceSchemaNames, type ResourceSchemas } from './resourceSchemas';
export { errorSchemas, ERROR_SCHEMAS, PROBLEM } from './errorSchemas';
