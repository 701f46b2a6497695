/**
 * express-kernel/demo: the demo service's kernel and routes (a books and authors API (Book, Author resources), behind
 * HTTP Basic and bearer tokens, a back office behind a form login, with the profiler). Needs the optional peers
 * better-sqlite3 and bcryptjs.
 */
export { API_CORS_ALLOWED_HEADERS, API_CORS_EXPOSED_HEADERS, createDemoKernel, DEMO_DEFAULTS } from './app';
export type { DemoKernel, DemoKernelOptions } from './app';
export { createDemoRoutes } from './routes';
export { createDemoResources, bookSchema, authorSchema, featuredOnlyByAdmin } from './resources';
