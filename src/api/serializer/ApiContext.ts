import type { Request } from 'express';
import type { Resource } from '../resource/defineResource';
import type { IdentifierType } from '../state/identifier';
import { ReferenceType } from '../../routing/generator/UrlGenerator';
import { DEFAULT_URL_GENERATION_STRATEGY, type UrlGenerationStrategy } from '../resource/urlGenerationStrategy';

/**
 * What the serializers need to know of the API and the request: where the entrypoint,
 * contexts and documentation live, each resource's collection path, and the request's origin
 * and base URL (for absolute vocabulary IRIs and mounted kernels).
 */
export interface ApiPaths {
  /** `/api` */
  readonly entrypoint: string;
  /** `/api/contexts` (a context is `/api/contexts/Book`) */
  readonly contexts: string;
  /** `/api/docs.jsonld` */
  readonly docs: string;
  /** Resources by short name. */
  readonly resources: ReadonlyMap<string, Resource>;
  /** Collection path by short name. */
  readonly prefixes: Readonly<Record<string, string>>;
  /** Identifier type by short name (how a relation's IRI is read). */
  readonly identifiers: Readonly<Record<string, IdentifierType>>;
  /**
   * How each resource's items are named wherever they appear (a relation, a collection member,
   * an embedded document: API Platform takes the target's Get operation's strategy), by short
   * name: the Get operation's `urlGenerationStrategy`, else the resource's, else the API's.
   */
  readonly strategies: Readonly<Record<string, UrlGenerationStrategy>>;
  /** The API's `urlGenerationStrategy` (the entrypoint's, and every resource's default). */
  readonly urlGenerationStrategy: UrlGenerationStrategy;
}

/** The per-request part: base URL, origin, and how the operation being served writes its IRIs. */
export interface RequestBase {
  /** The mount path (`''` standalone, `/index.php` behind a front controller). */
  readonly baseUrl: string;
  /** `http://host:port`. */
  readonly origin: string;
  /**
   * The operation's `urlGenerationStrategy`: the document's own IRIs (an item's `@id` as a
   * document, a collection's `@id` and page links, `@context`, `Location`) follow it.
   */
  readonly strategy: UrlGenerationStrategy;
}

/**
 * The base URL and origin of the request, as the kernel's URI saw them (trusted proxies applied).
 * @param strategy - how the operation served writes its IRIs. @default ReferenceType.ABSOLUTE_PATH
 */
export function requestBase(req: Request, strategy = DEFAULT_URL_GENERATION_STRATEGY): RequestBase {
  const uri = req.kernel?.uri;
  return {
    baseUrl: uri?.baseUrl ?? '',
    origin: uri?.schemeAndHttpHost ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`,
    strategy,
  };
}

/**
 * What an IRI starts with under a strategy, before the route's path (`/api/books/3`): the base
 * URL (`ABSOLUTE_PATH`: `/index.php`), the origin and base URL (`ABSOLUTE_URL`:
 * `https://example.com/index.php`), or `//`, the host and port, and the base URL
 * (`NETWORK_PATH`: `//example.com:8443/index.php`), as Symfony's `UrlGenerator` writes them.
 * @param strategy - @default the operation's (`base.strategy`)
 */
export function iriRoot(base: RequestBase, strategy: UrlGenerationStrategy = base.strategy): string {
  switch (strategy) {
    case ReferenceType.ABSOLUTE_URL: return `${base.origin}${base.baseUrl}`;
    case ReferenceType.NETWORK_PATH: return `${base.origin.slice(base.origin.indexOf('//'))}${base.baseUrl}`;
    default: return base.baseUrl;
  }
}

/** {@link iriRoot} of a resource's items (its {@link ApiPaths.strategies} entry), by short name. */
export function resourceIriRoot(paths: ApiPaths, base: RequestBase, shortName: string): string {
  return iriRoot(base, paths.strategies[shortName] ?? paths.urlGenerationStrategy);
}

/** The vocabulary IRI (`http://host/api/docs.jsonld#`): absolute, as a JSON-LD processor needs. */
export function vocabulary(paths: ApiPaths, base: RequestBase): string {
  return `${base.origin}${base.baseUrl}${paths.docs}#`;
}
