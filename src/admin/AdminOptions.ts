import type { Request } from 'express';
import { z } from 'zod';
import { functionOption, integerFrom, nonEmptyString, objectWith, optionsObject } from '../config/optionSchemas';
import type { Resource, StateContext, StateProcessor, StateProvider } from '../api';
import type { AuditStore } from './AuditLog';
import { crudOptionsSchema, type CrudOptions } from './CrudOptions';

/**
 * The default of `relationSelectLimit`: up to 50 targets, a relation is a `<select>` (a list
 * one scans at a glance, a few kilobytes of HTML); above, the relation picker.
 */
export const RELATION_SELECT_LIMIT = 50;

const RESOURCE = 'expected what defineResource() returns';
const PATH = 'expected a path such as "/admin" (no trailing slash, no placeholder)';
const path = z.string({ error: PATH }).regex(/^\/[^{}?#]*[^/{}?#]$/, { error: PATH });

/**
 * The schema of {@link AdminOptions}, validated once by `adminRoutes` (the checks across
 * resources, one per short name and relations to listed resources, follow the parse).
 */
export const adminOptionsSchema = optionsObject({
  /**
   * The resources the back office shows (the opt-in: a resource gets screens when listed here),
   * as `defineResource` returned them. A relation must name one of them (its select lists the
   * target's items). A resource without a processor gets read-only screens.
   */
  resources: z.array(z.custom<Resource>((r) => typeof r === 'object' && r !== null
    && typeof (r as Partial<Resource>).shortName === 'string' && (r as Partial<Resource>).metadata !== undefined,
  { error: RESOURCE }), { error: 'expected an array of resources' }).min(1, { error: 'expected at least one resource' })
    .readonly(),
  /**
   * Each resource's screens, by short name (EasyAdmin's CRUD controllers): labels, fields per
   * page and their types, search, sort, page size, actions. See `CrudOptions`.
   * @example
   * { Book: { entityLabelInPlural: { en: 'Books', fr: 'Livres' },
   *   fields: { price: { type: 'money', currency: 'EUR' } } } }
   */
  crud: z.record(z.string(), crudOptionsSchema, { error: 'expected an object of resource options by short name' })
    .optional(),
  /** Where the screens live: the dashboard's path; the others are below it. @default '/admin' */
  prefix: path.optional(),
  /**
   * The stylesheet's path. Outside `prefix` by default, so the login page gets it before the
   * firewall lets anyone in. @default '/bundles/admin/admin.css'
   */
  stylesheetPath: path.optional(),
  /** Rows per index page. @default 20 */
  itemsPerPage: integerFrom(1).max(100, { error: 'expected at most 100' }).optional(),
  /**
   * The most items a relation's target may have for the relation to be a `<select>` of them all
   * (on the form and in the index's filters). A target with more items gets, on the form, an id
   * input and a "Choose…" button that opens the relation picker (a search page with pages of
   * results, no script needed), and in the filters an input that takes an id, an IRI or part
   * of the target's label. `0` always uses the picker.
   * @default 50 ({@link RELATION_SELECT_LIMIT})
   * @example 200
   */
  relationSelectLimit: integerFrom(0).max(1000, { error: 'expected at most 1000' }).optional(),
  /** Entries of the audit log on the dashboard. @default 10 */
  latestChanges: integerFrom(1).max(100, { error: 'expected at most 100' }).optional(),
  /**
   * Where the audit log is kept (a SQL store needs the `audit_log` table: `auditLogMigration()`).
   * @default the first resource's provider and processor
   */
  auditStore: z.object({
    provider: objectWith<StateProvider>(['provideCollection', 'provideItem'], 'a StateProvider'),
    processor: objectWith<StateProcessor>(['create', 'replace', 'remove'], 'a StateProcessor'),
  }, { error: 'expected { provider, processor }' }).optional(),
  /** The store context of a request (the profiler's Database panel), as `apiRoutes`' option. */
  stateContext: functionOption<(req: Request) => StateContext>('a function (req) => StateContext').optional(),
  /** The role the screens require (checked by each route, besides the firewall). @default 'ROLE_ADMIN' */
  role: nonEmptyString.optional(),
  /** The name in the header and page titles. @default the catalog's "Back office" */
  title: z.string().optional(),
});

/** Options of `adminRoutes`. All optional but `resources`. */
export type AdminOptions = z.input<typeof adminOptionsSchema>;

/** {@link AdminOptions} with their defaults. */
export interface ResolvedAdminOptions {
  readonly resources: readonly Resource[];
  /** Each resource's configuration, by short name (checked against the resource). */
  readonly crud: Readonly<Record<string, CrudOptions>>;
  readonly prefix: string;
  readonly stylesheetPath: string;
  readonly itemsPerPage: number;
  readonly latestChanges: number;
  readonly relationSelectLimit: number;
  readonly auditStore: AuditStore;
  readonly stateContext?: (req: Request) => StateContext;
  readonly role: string;
  readonly title?: string;
}
