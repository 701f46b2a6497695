import type { z } from 'zod';
import type { Violation } from '../http/ApiErrors';
import type { FilterType } from '../resource/filters';
import type { UnwrappedSchema } from '../schema/metadata';
import type { ViolationMessages } from '../write/violationMessages';
import type { SqlFlavour } from '../sql/LoggedDialect';
import type { IdentifierType, PropertyKind, PropertyMetadata } from '../state/types';

/**
 * What one property kind (`string`, `integer`, `datetime`, `relation`, …) means to every part of
 * the API layer, in one place: how a zod schema is recognised as it, how its values travel on the
 * wire (out: normalization; in: the type check, then conversion to the stored shape), which
 * filters apply and how a query string's value is read, how the docs type it, and how SQL stores
 * it (the back office maps kinds to its field types in `src/admin/fieldTypes.ts`). API Platform
 * spreads this across PropertyInfo's `Type`, its normalizers, Doctrine's types and each filter's
 * `getDescription`; here a new kind is one module (see `kinds/`) plus one entry of the registry
 * (`propertyKinds.ts`), which the compiler checks against the {@link PropertyKind} union.
 * @module
 */

/** What a conversion of an IRI or a relation needs to know of the API's routes. */
export interface WireContext {
  /** The collection path of each resource, by short name (`{ Author: '/api/authors' }`). */
  readonly prefixes: Readonly<Record<string, string>>;
  /** The mount path IRIs carry (`''` at the root, `/index.php` behind a front controller). */
  readonly baseUrl: string;
  /**
   * What the IRIs written of a resource's items start with, by short name (its
   * `urlGenerationStrategy`: `https://host/index.php` for `ABSOLUTE_URL`).
   * @default `baseUrl` (absolute paths)
   */
  readonly root?: (shortName: string) => string;
  /** The violations' messages in the request's locale (English when absent). */
  readonly messages?: ViolationMessages;
  /**
   * The identifier type of each resource, by short name (`{ Author: 'uuid' }`): how a relation's
   * IRI is read. A resource left out has `integer` ids.
   */
  readonly identifiers?: Readonly<Record<string, IdentifierType>>;
}

/** A relation's target, for reading a query value that names one of its items. */
export interface RelationTarget {
  /** Its collection path (`/api/authors`). */
  readonly prefix: string;
  /** Its identifier type. @default 'integer' */
  readonly identifier?: IdentifierType;
}

/** A query-string value read as the kind, or what was expected instead (for the 400's message). */
export type QueryValue = { readonly value: string | number | boolean } | { readonly expected: string };

/** A written value in the stored shape, or the 422's violation. */
export type StoredValue = { readonly value: unknown } | { readonly violation: Violation };

/** The parts of a property's metadata that its kind decides (read from its schema). */
export type KindMetadata = Pick<PropertyMetadata, 'kind'>
  & Partial<Pick<PropertyMetadata, 'enumValues' | 'relation' | 'embeddable'>>;

/** What a kind made of other properties (an embeddable) reads its fields with: the schema reader's own. */
export interface SchemaReader {
  /**
   * The properties of an object schema's shape (`propertiesOf`).
   * @throws KernelConfigError for a field of no supported kind
   */
  readonly properties: (shape: Readonly<Record<string, z.ZodType>>, option: string) => PropertyMetadata[];
}

/** One property kind. Every function receives values that are not null (the callers handle null). */
export interface PropertyKindDefinition<K extends PropertyKind = PropertyKind> {
  readonly kind: K;
  /**
   * How a schema of this kind is written, for the message that lists the supported ones
   * (`'date (z.iso.date())'`); undefined to leave it out (a variant of another, e.g. `text()`).
   */
  readonly schemaHint?: string;
  /**
   * The kind's metadata when the (unwrapped) schema is of this kind, else undefined. The kinds'
   * tests exclude one another: at most one kind recognises a schema.
   * @param option - the option path for messages, e.g. `resources.Book.schema.tags`
   * @param reader - reads the fields of a kind made of properties (an embeddable's)
   * @throws KernelConfigError when the schema is of this kind but cannot be used (an enum of numbers)
   */
  readonly fromSchema: (schema: UnwrappedSchema, option: string, reader: SchemaReader) => KindMetadata | undefined;

  /** PHP's type of the kind, as API Platform's 400 names it (`The type of … must be "int"`). */
  readonly phpType: string;
  /**
   * The 400's message when a client's value cannot be read as the kind (before validation, as
   * API Platform's serializer refuses a value of the wrong type), else undefined.
   */
  readonly typeError: (value: unknown, property: PropertyMetadata, wire: WireContext) => string | undefined;
  /**
   * A client's value before the schema validates it (a datetime with an offset read as UTC; an
   * embeddable's fields each by their kind).
   */
  readonly beforeValidation?: (value: unknown, property: PropertyMetadata) => unknown;
  /** A validated client value in the stored shape (an IRI to the target's id), or a violation. */
  readonly toStored: (value: unknown, property: PropertyMetadata, wire: WireContext) => StoredValue;
  /** A stored value as sent (an id to its IRI, a UTC datetime with `+00:00`). */
  readonly toWire: (value: unknown, property: PropertyMetadata, wire: WireContext) => unknown;

  /** The filter types that apply to the kind (API Platform's filters check the Doctrine type so). */
  readonly filters: ReadonlySet<FilterType>;
  /** Whether the search filter's text strategies (`partial`, `start`, …) apply, not only `exact`. */
  readonly textSearch: boolean;
  /** The JSON Schema of one query-string value (a filter parameter's `schema`). */
  readonly queryValueSchema: (property: PropertyMetadata) => Record<string, unknown>;
  /** A query-string value as the kind (a filter's operand). */
  readonly fromQuery: (
    value: string, property: Pick<PropertyMetadata, 'enumValues'>, relation?: RelationTarget,
  ) => QueryValue;

  /** The documentation's range: an XML Schema datatype (`xmls:integer`), or the target class (`#Author`). */
  readonly hydraRange: (property: PropertyMetadata) => string | undefined;
  /** Whether values are links to other resources: a `hydra:Link`, an `@id` term, a HAL `_links` entry. */
  readonly link: boolean;

  /** The SQL storage of the kind. */
  readonly sql: {
    /** The column type on each database. */
    readonly columnType: (flavour: SqlFlavour) => string;
    /** A value as bound to a statement. */
    readonly toColumn: (value: unknown, flavour: SqlFlavour) => unknown;
    /** A column's value as the contract's shape (see `PropertyKind`). */
    readonly fromColumn: (value: unknown) => unknown;
    /**
     * Whether the column is an integer that a number operand must be cast against on PostgreSQL
     * (the server types a parameter as the column's `integer` and would refuse `1.5`).
     */
    readonly integerColumn: boolean;
    /**
     * For a kind stored in several columns (an embeddable, a column per field): its columns, each
     * as the property it stores, named as the column (`address_city`), and how a value (in the
     * contract's shape, or null) is split into them and read back. Absent: one column, named as
     * the property, through `toColumn` and `fromColumn`.
     */
    readonly split?: {
      readonly columns: (property: PropertyMetadata) => readonly PropertyMetadata[];
      /** The columns' values in the contract's shapes, by column name (all null for null). */
      readonly toColumns: (value: unknown, property: PropertyMetadata) => Record<string, unknown>;
      /** The value from the columns' values (in the contract's shapes, by column name). */
      readonly fromColumns: (values: Readonly<Record<string, unknown>>, property: PropertyMetadata) => unknown;
    };
  };

}
