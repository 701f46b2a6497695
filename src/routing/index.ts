export { Route } from './Route';
export type { RouteOptions, RouteChanges, RouteDefault, RouteDefaultInput, Controller, RouteCondition } from './Route';
export { Alias } from './Alias';
export type { AliasDeprecation } from './Alias';
export { RouteCollection } from './RouteCollection';
export type { DeprecationListener } from './RouteCollection';
export { compileRoute, compileNamed } from './RouteCompiler';
export type { CompiledRoute, Token, TextToken, VariableToken } from './RouteCompiler';
export { createRequestContext, RequestContext } from './RequestContext';
export type { RequestContextInit } from './RequestContext';
export { UrlMatcher } from './matcher/UrlMatcher';
export type { UrlMatcherOptions } from './matcher/UrlMatcher';
export type { UrlMatcherInterface, MatchContext, MatchResult, MatchFailure } from './matcher/UrlMatcherInterface';
export * from './errors';
export { KernelError, isKernelError } from '../errors/KernelError';
export { rawUrlDecode } from './rawUrlDecode';
export { TraceableUrlMatcher, TraceLevel } from './matcher/TraceableUrlMatcher';
export type { Trace } from './matcher/TraceableUrlMatcher';
export { UrlGenerator, ReferenceType, rawUrlEncode } from './generator/UrlGenerator';
export type {
  UrlGeneratorInterface, UrlGeneratorOptions, RoutingLogger, ParameterValue,
} from './generator/UrlGenerator';
export { looseEquals } from './generator/looseEquals';
export { loadRoutes, parseRoutes, localizedRoutes, addLocalizedPrefix, addLocalizedHost } from './loader';
export type { ControllerMap, LoadRoutesOptions, LocalizedPath } from './loader';
