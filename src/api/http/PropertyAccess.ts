import type { Request } from 'express';
import { baseContext } from '../../security/RouteSecurity';
import type { Resource } from '../resource/defineResource';
import type { SecurityRule } from '../resource/operations';
import type { PropertyPostDenormalizeContext, PropertySecurityContext } from '../resource/propertySecurity';
import { type ApiPaths, type RequestBase, requestBase } from '../serializer/ApiContext';
import { normalizeItem } from '../serializer/normalize';
import type { StoredItem } from '../state/types';

/**
 * The properties' access rules (the `properties` option of `defineResource`) applied to one
 * request, as API Platform's `AbstractItemNormalizer` does: `canAccessAttribute` when an item is
 * written out (a property denied is left out) and when a body is read (a value for a property
 * denied is ignored), `canAccessAttributePostDenormalize` once the new object is built (a
 * property denied goes back to its previous value).
 * @module
 */

type Item = Record<string, unknown>;

/**
 * The item as the client would see it with every property, writeOnly ones too: what an
 * operation's `security` and a property's rules see as `object`.
 */
export function fullRepresentation(resource: Resource, item: StoredItem, paths: ApiPaths, base: RequestBase): Item {
  const out = normalizeItem(resource, item, paths, base);
  for (const p of resource.metadata.properties) if (p.writeOnly) out[p.name] = item.data[p.name] ?? null;
  return out;
}

/** Runs a rule: a role (or attribute) for `isGranted`, or a function; a promise when the function gives one. */
function decide<C extends { isGranted(attribute: string): boolean }>(
  rule: SecurityRule<C>, context: C,
): boolean | Promise<boolean> {
  if (typeof rule === 'string') return context.isGranted(rule);
  const result = rule(context);
  return result instanceof Promise ? result.then((r) => r === true) : result === true;
}

/**
 * Runs a security rule to its answer: a role (or attribute) for `isGranted`, or a function (true grants).
 * @returns whether the rule grants access
 */
export async function granted<C extends { isGranted(attribute: string): boolean }>(
  rule: SecurityRule<C>, context: C,
): Promise<boolean> {
  return (await decide(rule, context)) === true;
}

/** Resets `name` of `object` to its previous value, or removes it (its default applies) on a create. */
function revert(object: Item, name: string, previous: Readonly<Item> | null): void {
  if (previous !== null && Object.prototype.hasOwnProperty.call(previous, name)) object[name] = previous[name];
  else delete object[name];
}

/** The property rules of one request: which properties the client may read and write. */
export class PropertyAccess {
  /** The secured properties the client may not read, per item decided by {@link prepare}. */
  private readonly hidden = new WeakMap<StoredItem, ReadonlySet<string>>();

  /**
   * @param req - the request (its user, roles, `isGranted`)
   * @param paths - the API's paths (the items' representations)
   */
  constructor(private readonly req: Request, private readonly paths: ApiPaths) {}

  private context(resource: Resource, item: StoredItem, property: string): PropertySecurityContext {
    const object = fullRepresentation(resource, item, this.paths, requestBase(this.req));
    return { ...baseContext(this.req), object: Object.freeze(object), property };
  }

  /**
   * Decides which secured properties of each item the client may read, awaiting the rules that
   * answer with a promise. Call it before the items are written out.
   * @param resource - the items' resource
   */
  async prepare(resource: Resource, items: readonly StoredItem[]): Promise<void> {
    const rules = Object.entries(resource.propertySecurity).filter(([, r]) => r.security !== undefined);
    if (rules.length === 0) return;
    for (const item of items) {
      const hidden = new Set<string>();
      for (const [name, r] of rules) {
        if (!(await decide(r.security!, this.context(resource, item, name)))) hidden.add(name);
      }
      this.hidden.set(item, hidden);
    }
  }

  /**
   * Leaves out of an item's normalization the properties the client may not read. For an item
   * {@link prepare} did not see, the rules are run here; one that answers with a promise denies.
   * @param normalized - the item's normalization (changed in place)
   * @returns `normalized`
   */
  strip(resource: Resource, item: StoredItem, normalized: Item): Item {
    const rules = resource.propertySecurity;
    let hidden = this.hidden.get(item);
    if (hidden === undefined) {
      const found = new Set<string>();
      for (const [name, r] of Object.entries(rules)) {
        if (r.security === undefined) continue;
        const granted = decide(r.security, this.context(resource, item, name));
        if (granted instanceof Promise) granted.catch(() => undefined);
        if (granted !== true) found.add(name);
      }
      hidden = found;
    }
    for (const name of hidden) delete normalized[name];
    return normalized;
  }

  /**
   * Ignores the values of a new object built from a body for the properties whose `security`
   * denies (before the body's types are checked, as API Platform never reads them): each is
   * replaced by the stored value (removed on a create, so its default applies).
   * @param object - the new object (changed in place)
   * @param previous - the stored item's full representation, or null on a create
   */
  async ignoreDenied(resource: Resource, object: Item, previous: Readonly<Item> | null): Promise<void> {
    for (const [name, r] of Object.entries(resource.propertySecurity)) {
      if (r.security === undefined) continue;
      const context = { ...baseContext(this.req), object: previous === null ? null : { ...previous }, property: name };
      if (!(await decide(r.security, context))) revert(object, name, previous);
    }
  }

  /**
   * Each property the body names whose `securityPostDenormalize` denies, once the new object is
   * built, goes back to its stored value (removed on a create, so its default applies).
   * @param object - the new object (changed in place)
   * @param previous - the stored item's full representation, or null on a create
   * @param sent - the property names the body holds
   */
  async revertDenied(
    resource: Resource, object: Item, previous: Readonly<Item> | null, sent: readonly string[],
  ): Promise<void> {
    for (const [name, r] of Object.entries(resource.propertySecurity)) {
      if (r.securityPostDenormalize === undefined || !sent.includes(name)) continue;
      const context: PropertyPostDenormalizeContext = {
        ...baseContext(this.req), object: { ...object }, previousObject: previous === null ? null : { ...previous },
        property: name,
      };
      if (!(await decide(r.securityPostDenormalize, context))) revert(object, name, previous);
    }
  }
}
