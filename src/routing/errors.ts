import { ErrorCode, formatMessage } from '../errors/codes';
import { isKernelError, KernelError, KernelErrorOptions } from '../errors/KernelError';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_ROUTING_RESOURCE_NOT_FOUND: ResourceNotFoundError;
    ERR_ROUTING_NO_CONFIGURATION: NoConfigurationError;
    ERR_ROUTING_METHOD_NOT_ALLOWED: MethodNotAllowedError;
    ERR_ROUTING_ROUTE_NOT_FOUND: RouteNotFoundError;
    ERR_ROUTING_MISSING_PARAMETERS: MissingMandatoryParametersError;
    ERR_ROUTING_INVALID_PARAMETER: InvalidParameterError;
    ERR_ROUTING_INVALID_ROUTE: InvalidRouteError;
    ERR_ROUTING_INVALID_ARGUMENT: RoutingArgumentError;
    ERR_ROUTING_CIRCULAR_REFERENCE: RouteCircularReferenceError;
    ERR_ROUTING_LOADER: RouteLoaderError;
  }
}

/** The codes of the routing component. */
type RoutingCode = Extract<ErrorCode, `ERR_ROUTING_${string}`>;

/**
 * Base class of every error the routing component throws (codes `ERR_ROUTING_*`). It knows
 * nothing of HTTP, so it has no status: the router middleware translates it into an `HttpError`
 * (Symfony's `ExceptionInterface` of the Routing component, translated by HttpKernel's
 * `RouterListener`).
 */
export class RoutingError extends KernelError {
  override name = 'RoutingError';
  declare readonly code: RoutingCode;

  /**
   * @param code - the registry code
   * @param message - the message
   * @param options - `cause`; `stack: false` skips capturing a stack trace, for the errors the
   *   matcher throws on every miss (control flow: the HTTP error that wraps them has its own)
   */
  constructor(code: RoutingCode, message: string, options?: KernelErrorOptions) {
    super(code, message, options);
  }
}

/**
 * True when `value` is a {@link RoutingError}, also across realms and package copies (shorthand
 * for {@link isKernelError} and an `ERR_ROUTING_*` code).
 * @param value - anything caught
 */
export function isRoutingError(value: unknown): value is RoutingError {
  return isKernelError(value) && value.code.startsWith('ERR_ROUTING_');
}

/**
 * No route matches the path. Message: `No routes found for "<path>".`, where the path is the
 * trailing-slash-toggled one for GET and HEAD (Symfony `ResourceNotFoundException`).
 */
export class ResourceNotFoundError extends RoutingError {
  override name = 'ResourceNotFoundError';
  /** The path info that was last tried (raw, as given to the matcher). */
  readonly pathInfo: string;
  constructor(
    pathInfo: string,
    code: 'ERR_ROUTING_RESOURCE_NOT_FOUND' | 'ERR_ROUTING_NO_CONFIGURATION' = 'ERR_ROUTING_RESOURCE_NOT_FOUND',
  ) {
    super(code, formatMessage(code, pathInfo), { stack: false });
    this.pathInfo = pathInfo;
  }
}

/**
 * The table is empty for `/`: nothing matched and nothing was collected (Symfony
 * `NoConfigurationException`, a kind of resource-not-found).
 */
export class NoConfigurationError extends ResourceNotFoundError {
  override name = 'NoConfigurationError';
  constructor() {
    super('/', 'ERR_ROUTING_NO_CONFIGURATION');
  }
}

const allowTexts = new WeakMap<readonly string[], string>();

/**
 * An allow list as the messages and the `Allow` header spell it: the methods joined by `, `
 * (`GET, HEAD`; RFC 9110 §10.2.1, and Symfony's `implode(', ', $allowedMethods)` in
 * `RouterListener`). Remembered per frozen list (the matcher returns a route's own frozen list
 * for a 405 on one route), so the same route's 405s join it once; other lists are joined each time.
 * @param allowedMethods - the methods, in order
 * @returns the joined text; throws nothing
 */
export function allowedMethodsText(allowedMethods: readonly string[]): string {
  let text = allowTexts.get(allowedMethods);
  if (text === undefined) {
    text = allowedMethods.join(', ');
    if (Object.isFrozen(allowedMethods)) allowTexts.set(allowedMethods, text);
  }
  return text;
}

/**
 * The path matches one or more routes, but none accepts the method. `allowedMethods` lists each
 * matching route's declared methods, in declaration order, without duplicates and without an
 * added HEAD (Symfony `MethodNotAllowedException`).
 */
export class MethodNotAllowedError extends RoutingError {
  override name = 'MethodNotAllowedError';
  readonly allowedMethods: readonly string[];
  readonly method: string;
  constructor(method: string, allowedMethods: readonly string[]) {
    const message = formatMessage('ERR_ROUTING_METHOD_NOT_ALLOWED', method, allowedMethodsText(allowedMethods));
    super('ERR_ROUTING_METHOD_NOT_ALLOWED', message, { stack: false });
    this.method = method;
    // a frozen list is kept, not copied (support/frozen's frozenList, written out: the routing
    // entry point loads nothing outside routing and the errors floor)
    this.allowedMethods = Object.isFrozen(allowedMethods) ? allowedMethods : Object.freeze([...allowedMethods]);
  }
}

/** URL generation for a name that the collection does not hold (Symfony `RouteNotFoundException`). */
export class RouteNotFoundError extends RoutingError {
  override name = 'RouteNotFoundError';
  readonly routeName: string;
  constructor(routeName: string) {
    super('ERR_ROUTING_ROUTE_NOT_FOUND', formatMessage('ERR_ROUTING_ROUTE_NOT_FOUND', routeName));
    this.routeName = routeName;
  }
}

/** URL generation without a value for a mandatory parameter (Symfony `MissingMandatoryParametersException`). */
export class MissingMandatoryParametersError extends RoutingError {
  override name = 'MissingMandatoryParametersError';
  readonly routeName: string;
  readonly missingParameters: readonly string[];
  constructor(routeName: string, missing: readonly string[]) {
    super(
      'ERR_ROUTING_MISSING_PARAMETERS',
      formatMessage('ERR_ROUTING_MISSING_PARAMETERS', missing.join('", "'), routeName),
    );
    this.routeName = routeName;
    this.missingParameters = Object.freeze([...missing]);
  }
}

/** URL generation with a value that breaks the parameter's requirement (Symfony `InvalidParameterException`). */
export class InvalidParameterError extends RoutingError {
  override name = 'InvalidParameterError';
  constructor(
    readonly parameter: string,
    readonly routeName: string,
    readonly requirement: string,
    readonly given: string,
  ) {
    super(
      'ERR_ROUTING_INVALID_PARAMETER',
      formatMessage('ERR_ROUTING_INVALID_PARAMETER', parameter, routeName, requirement, given),
    );
  }
}

/**
 * A route definition that cannot compile (bad variable name, duplicate variable, bad requirement).
 * Message: `Route "<route or path>" is invalid: <reason>`.
 */
export class InvalidRouteError extends RoutingError {
  override name = 'InvalidRouteError';
  /** The route's name, or its path (or pattern) when the error comes from compiling the route alone. */
  readonly routeOrPath: string;
  /** Why the route cannot compile: Symfony's message where it has one. */
  readonly reason: string;

  /**
   * @param routeOrPath - the route's name, or its path or pattern
   * @param reason - why it cannot compile
   * @param options - `cause`: the error of the route alone, when a collection names it
   */
  constructor(routeOrPath: string, reason: string, options?: KernelErrorOptions) {
    super('ERR_ROUTING_INVALID_ROUTE', formatMessage('ERR_ROUTING_INVALID_ROUTE', routeOrPath, reason), options);
    this.routeOrPath = routeOrPath;
    this.reason = reason;
  }
}

/**
 * A bad argument to the routing API: an alias to itself, a bad deprecation template, a localized
 * route missing a locale (Symfony's `InvalidArgumentException` of the Routing component).
 */
export class RoutingArgumentError extends RoutingError {
  override name = 'RoutingArgumentError';
  constructor(message: string) {
    super('ERR_ROUTING_INVALID_ARGUMENT', formatMessage('ERR_ROUTING_INVALID_ARGUMENT', message));
  }
}

/** An alias chain that comes back to itself (Symfony `RouteCircularReferenceException`). */
export class RouteCircularReferenceError extends RoutingError {
  override name = 'RouteCircularReferenceError';
  /** The names met, from the first repeated one to itself again. */
  readonly path: readonly string[];
  constructor(readonly routeName: string, path: readonly string[]) {
    const message = formatMessage('ERR_ROUTING_CIRCULAR_REFERENCE', routeName, path.join(' -> '));
    super('ERR_ROUTING_CIRCULAR_REFERENCE', message);
    this.path = Object.freeze([...path]);
  }
}

/**
 * A route file that cannot be loaded: unreadable, not YAML/JSON, an unknown key, a bad value
 * (Symfony's `InvalidArgumentException` from `YamlFileLoader`). The message names the file and,
 * where there is one, the route and the key.
 */
export class RouteLoaderError extends RoutingError {
  override name = 'RouteLoaderError';
  constructor(readonly file: string, message: string, options?: { cause?: unknown }) {
    super('ERR_ROUTING_LOADER', formatMessage('ERR_ROUTING_LOADER', message), options);
  }
}
