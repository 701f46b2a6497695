import { invalidOption } from '../../config/optionError';
import { closestName } from '../../errors/suggest';
import type { SecurityContext } from '../../security/RouteSecurity';
import type { ResourceMetadata } from '../state/types';
import type { SecurityRule } from './operations';

/**
 * A URI variable's link to another resource (API Platform 3.4's `ApiPlatform\Metadata\Link`),
 * given in an operation's `uriVariables`: what makes `/authors/{authorId}/books` the books of
 * one author (a subresource). The store provider reads it (API Platform's Doctrine
 * `LinksHandlerTrait`); `security` is checked on the linked (parent) item.
 * @module
 */

/** A link as declared with {@link link}. */
export interface Link {
  /** The resource the variable identifies (`'Author'` for `{authorId}`), by short name. */
  readonly fromClass: string;
  /**
   * This resource's relation to `fromClass` (`'author'`: the books whose `author` is the
   * variable's item; a to-many relation: the items linked to it). Not with `fromProperty`.
   */
  readonly toProperty?: string;
  /**
   * `fromClass`'s relation to this resource (`'tags'` of Book for `/books/{id}/tags`, `'author'`
   * of Book for `/books/{id}/author`): the items the variable's item points to. Not with `toProperty`.
   */
  readonly fromProperty?: string;
  /**
   * Checked on the linked item (API Platform `Link::security`), as `object`, before the
   * operation's own `security`: false is a 403 (a 401 for an anonymous client, as `security`).
   * With it, a variable naming no item is a 404.
   */
  readonly security?: SecurityRule<SecurityContext>;
  /** The 403's message when `security` denies. @default 'Access Denied.' */
  readonly securityMessage?: string;
}

/** A link resolved against the API's resources (what the provider and the endpoint read). */
export interface ResolvedLink extends Link {
  /** The URI variable, e.g. `authorId`. */
  readonly parameter: string;
  /** `fromClass`'s metadata, once `apiRoutes` (or `describeApi`) has every resource. */
  readonly from?: ResourceMetadata;
}

/**
 * Declares a URI variable's link (API Platform's `new Link(fromClass: …, toProperty: …)`).
 * @param options - `fromClass` and one of `toProperty`/`fromProperty`; `security`,
 *   `securityMessage` optional
 * @returns the link, frozen; checked by `defineResource` (the property exists and is a relation
 *   to `fromClass`) and `apiRoutes` (`fromClass` is a resource of the API)
 * @example GetCollection({ uriTemplate: '/authors/{authorId}/books',
 *   uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) } })
 */
export function link(options: Link): Link {
  return Object.freeze({ ...options });
}

/**
 * Checks that a link's property is a (to-one or to-many, readable) relation of `owner` to `target`.
 * @param option - the option's path, for the message
 * @throws KernelConfigError naming the option, the relations `owner` has to `target`, and a "did you mean"
 */
export function checkLinkRelation(owner: ResourceMetadata, property: string, target: string, option: string): void {
  const relations = owner.properties.filter((p) => (p.kind === 'relation' || p.kind === 'relations')
    && p.relation === target && !p.writeOnly).map((p) => p.name);
  if (relations.includes(property)) return;
  const best = closestName(property, relations);
  const what = `expected a relation of ${owner.shortName} to ${target}`
    + (relations.length > 0 ? ` (${relations.join(', ')})` : ' (it has none)');
  throw invalidOption(option, what, property, best === undefined ? {} : { hint: `did you mean "${best}"?` });
}
