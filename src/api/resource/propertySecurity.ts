import { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { optionsObject } from '../../config/optionSchemas';
import { closestName } from '../../errors/suggest';
import type { PostDenormalizeContext, SecurityContext } from '../../security/RouteSecurity';
import type { ResourceMetadata } from '../state/types';
import { ruleSchema, type SecurityRule } from './operations';
import { propertyVocabularyShape } from './rdfVocabulary';

/**
 * Property-level access rules (API Platform 3.4's `#[ApiProperty(security: …,
 * securityPostDenormalize: …)]`, declared as its YAML `properties:` mapping is): the
 * `properties` option of `defineResource`, read by the API's serializer on every response and by
 * its deserializer on every write.
 * @module
 */

/** What a property's `security` sees (API Platform's `object` and `property` variables). */
export interface PropertySecurityContext extends Omit<SecurityContext, 'object'> {
  /**
   * The item, as the client would see it with every property (writeOnly ones too): when writing
   * a response, the item sent; when reading a body, the stored item (null on a create).
   */
  readonly object: Readonly<Record<string, unknown>> | null;
  /** The property's name. */
  readonly property: string;
}

/** What a property's `securityPostDenormalize` sees (API Platform's `object`, `previous_object`, `property`). */
export interface PropertyPostDenormalizeContext extends PostDenormalizeContext {
  /** The new object built from the body (property names to values as the client wrote them). */
  readonly object: Readonly<Record<string, unknown>>;
  /** The stored item before the change (writeOnly properties too), or null on a create. */
  readonly previousObject: Readonly<Record<string, unknown>> | null;
  /** The property's name. */
  readonly property: string;
}

/** The access rules of one property. All optional. */
export interface PropertySecurityOptions {
  /**
   * Who may read and write the property (API Platform `ApiProperty::security`): a role or
   * attribute for `isGranted`, or a function. Denied, the property is left out of the item in
   * every format (items, collection members, included items) and a value a client sends for it
   * is ignored: the write goes on and the property keeps its stored value (its default, or
   * null, on a create).
   */
  security?: SecurityRule<PropertySecurityContext>;
  /**
   * Checked on each property the body names, once the new object is built (API Platform
   * `ApiProperty::securityPostDenormalize`), with the new object and the stored one
   * (`previousObject`, null on a create). Denied, the property goes back to its stored value (its
   * default, or null, on a create); the write goes on. Not on a readOnly property.
   */
  securityPostDenormalize?: SecurityRule<PropertyPostDenormalizeContext>;
}

/** {@link PropertySecurityOptions} of each property that has rules, by property name. */
export type PropertySecurityMap = Readonly<Record<string, Readonly<PropertySecurityOptions>>>;

/**
 * The schema of the `properties` option (API Platform's `#[ApiProperty]` of each property, by
 * name): the access rules, and the vocabulary (`iris`, `types`; `rdfVocabulary.ts`).
 */
export const propertiesOptionSchema = z.record(z.string(), optionsObject({
  security: ruleSchema<PropertySecurityContext>().optional(),
  securityPostDenormalize: ruleSchema<PropertyPostDenormalizeContext>().optional(),
  ...propertyVocabularyShape,
}));

/**
 * Checks the `properties` option against the resource's properties.
 * @param given - the parsed option
 * @param metadata - the resource's properties
 * @param option - the option's path for messages, e.g. `resources.Book.properties`
 * @returns the rules of the properties that have some, frozen
 * @throws KernelConfigError for a name that is no property of the schema (with the closest
 *   one), or a `securityPostDenormalize` on a readOnly property (never written)
 */
export function resolvePropertySecurity(
  given: Readonly<Record<string, PropertySecurityOptions>>, metadata: ResourceMetadata, option: string,
): PropertySecurityMap {
  const names = metadata.properties.map((p) => p.name);
  const out: Record<string, Readonly<PropertySecurityOptions>> = {};
  for (const [name, rules] of Object.entries(given)) {
    const p = metadata.properties.find((x) => x.name === name);
    if (p === undefined) {
      const best = closestName(name, names);
      const hint = best === undefined ? `expected one of ${names.join(', ')}` : `did you mean "${best}"?`;
      throw invalidOption(`${option}.${name}`, `unknown property of ${metadata.shortName}`, name, { got: false, hint });
    }
    if (p.readOnly && rules.securityPostDenormalize !== undefined) {
      const what = 'a readOnly property is never written, so securityPostDenormalize would never run';
      throw invalidOption(`${option}.${name}.securityPostDenormalize`, what, undefined, { got: 'a rule' });
    }
    if (rules.security !== undefined || rules.securityPostDenormalize !== undefined) {
      out[name] = Object.freeze({
        ...(rules.security !== undefined ? { security: rules.security } : {}),
        ...(rules.securityPostDenormalize !== undefined
          ? { securityPostDenormalize: rules.securityPostDenormalize } : {}),
      });
    }
  }
  return Object.freeze(out);
}
