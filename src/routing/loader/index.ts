export { loadRoutes, parseRoutes } from './RouteFileLoader';
export type { ControllerMap, LoadRoutesOptions } from './RouteFileLoader';
export { localizedRoutes, addLocalizedPrefix, addLocalizedHost } from './localized';
export type { LocalizedPath } from './localized';
