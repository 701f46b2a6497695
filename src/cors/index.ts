/** The CORS layer: per-path NelmioCorsBundle-style settings on top of the `cors` package. */
export { corsLayer } from './corsLayer';
export type { CorsDecision } from './corsLayer';
export { corsOptionsSchema, resolveCorsOptions } from './options';
export type { CorsOptions, CorsPathOptions, CorsRule, ResolvedCorsOptions } from './options';
export { compileOrigins, isOriginAllowed } from './origins';
export type { OriginList, OriginPattern } from './origins';
