import type { Request } from 'express';
import type { Resource } from '../resource/defineResource';
import type { IdentifierType } from '../state/identifier';

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
}

/** The per-request part: base URL and origin. */
export interface RequestBase {
  /** The mount path (`''` standalone, `/index.php` behind a front controller). */
  readonly baseUrl: string;
  /** `http://host:port`. */
  readonly origin: string;
}

/** The base URL and origin of the request, as the kernel's URI saw them (trusted proxies applied). */
export function requestBase(req: Request): RequestBase {
  const uri = req.kernel?.uri;
  return {
    baseUrl: uri?.baseUrl ?? '',
    origin: uri?.schemeAndHttpHost ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

/** The vocabulary IRI (`http://host/api/docs.jsonld#`): absolute, as a JSON-LD processor needs. */
export function vocabulary(paths: ApiPaths, base: RequestBase): string {
  return `${base.origin}${base.baseUrl}${paths.docs}#`;
}
