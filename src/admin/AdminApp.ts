import type { Request, Response } from 'express';
import type nunjucks from 'nunjucks';
import {
  type OrderBy, type DeleteOutcome, type IdentifierType, type ItemId, type QueryLogEntry, type StateContext,
  type StateProcessor, type StoredItem, type WriteOutcome,
} from '../api';
import { idFromIri } from '../api/internals';
import { idFromPath } from '../api/internals';
import { isAtomic } from '../api/internals';
import { createFormBodyReader } from '../http/body/FormBodyReader';
import { AccessDeniedHttpError } from '../http/errors';
import { createTemplateEnvironment, TEMPLATES_DIR } from '../http/templates';
import { requestLog } from '../profiler/requestLogger';
import { csrfToken, isCsrfTokenValid } from '../security/csrf';
import { isLocalPath } from '../security/localPath';
import { existingSession } from '../session/previousSession';
import { requireSession } from '../session/requireSession';
import type { ResolvedAdminOptions } from './AdminOptions';
import { adminResource, itemLabel, type AdminResource } from './AdminResource';
import { AuditLog, type AuditAction, type AuditEntry, type AuditFieldChange } from './AuditLog';
import type { DisplayContext } from './display';
import { languageChoices } from './languageSwitcher';
import { localized, type LocalizedText } from './localized';
import { translatorFor, type Translator } from './translations';

declare module 'express-session' {
  interface SessionData {
    /** Flash messages of the back office, shown (then forgotten) by the next page. */
    adminFlash?: string[];
  }
}

/** The mount path of the app (`''` standalone, `/index.php` behind a front controller), as the kernel's URI saw it. */
function mountPath(req: Request): string {
  return req.kernel?.uri?.baseUrl ?? '';
}

/** The templates of the back office (`templates/admin/`), auto-escaped. */
const TEMPLATES: nunjucks.Environment = createTemplateEnvironment([TEMPLATES_DIR]);

/** Longest form body read, in bytes (a long text fits; more is a 413). */
const FORM_LIMIT = '64kb';

/** What the audit log records of one change: what was done, to which item, which fields. */
export interface AuditedChange {
  readonly action: AuditAction;
  readonly item: StoredItem;
  /** The properties the change set (create), changed (update) or held (delete), with their values. */
  readonly changes: readonly AuditFieldChange[];
}

/** The order of a relation's choices: by the target's label, else by id. */
export function labelOrder(admin: AdminResource): OrderBy[] {
  return [{ property: admin.labelField ?? 'id', direction: 'asc' }];
}

/** One select option. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/**
 * What every screen of one back office shares: its resources, paths, audit log, translator,
 * templates, flash messages and CSRF checks. Built once by `adminRoutes`.
 */
export class AdminApp {
  /** By short name. */
  readonly admins: ReadonlyMap<string, AdminResource>;
  /** Each resource's collection path (API IRIs of relations), by short name. */
  readonly prefixes: Readonly<Record<string, string>>;
  /** Each resource's identifier type (how a relation's IRI is read), by short name. */
  readonly identifiers: Readonly<Record<string, IdentifierType>>;
  readonly audit: AuditLog;
  readonly readForm = createFormBodyReader(FORM_LIMIT);

  constructor(readonly options: ResolvedAdminOptions) {
    const metadata = new Map(options.resources.map((r) => [r.shortName, r.metadata]));
    this.admins = new Map(options.resources.map((r) =>
      [r.shortName, adminResource(r, options.crud[r.shortName], (name) => metadata.get(name))]));
    this.prefixes = Object.fromEntries(options.resources.map((r) => [r.shortName, r.routePrefix]));
    this.identifiers = Object.fromEntries(options.resources.map((r) => [r.shortName, r.identifier.type]));
    this.audit = new AuditLog(options.auditStore);
  }

  /** The store context of a request (the profiler's Database panel sees the statements). */
  stateContext(req: Request): StateContext {
    const outer = this.options.stateContext?.(req);
    return { logQuery: (entry: QueryLogEntry) => outer?.logQuery?.(entry) };
  }

  /** A path of the back office, with the mount path: `url(req, 'books', 3, 'edit')`. */
  url(req: Request, ...segments: Array<string | number>): string {
    const rest = segments.map((s) => `/${encodeURIComponent(String(s))}`).join('');
    return `${mountPath(req)}${this.options.prefix}${rest}`;
  }

  translator(req: Request): { t: Translator; lang: string } {
    return translatorFor(req.locale);
  }

  /** A configured text (a label, a help) in the request's locale. */
  text(req: Request, text: LocalizedText): string {
    return localized(text, req.locale);
  }

  /** What `displayValue` needs to show an item's values to this request. */
  displayContext(req: Request, labels: ReadonlyMap<string, string>): DisplayContext {
    return {
      req, t: this.translator(req).t, labels,
      relatedUrl: (shortName, id) => {
        const target = this.admins.get(shortName);
        return target === undefined ? undefined : this.url(req, target.slug, id);
      },
    };
  }

  /** Keeps a message for the next page (Symfony's flash bag). */
  flash(req: Request, message: string): void {
    const session = requireSession(req);
    session.adminFlash = [...(session.adminFlash ?? []), message];
  }

  /** The flash messages, then forgotten; reads only a session the request came with (never starts one). */
  private takeFlash(req: Request): string[] {
    const session = existingSession(req);
    const messages = session?.adminFlash ?? [];
    if (messages.length > 0) delete session!.adminFlash;
    return messages;
  }

  /**
   * Reads the form body and checks its `_token` (Symfony's `isCsrfTokenValid`).
   * @returns the fields
   * @throws AccessDeniedHttpError 403 `Invalid CSRF token.` when `_token` is missing or wrong
   * @throws HttpError 413 for a body over the limit
   */
  async checkedForm(req: Request, res: Response): Promise<Record<string, unknown>> {
    await this.readForm(req, res);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (!isCsrfTokenValid(req, body._token)) throw new AccessDeniedHttpError('Invalid CSRF token.');
    return body;
  }

  /** Redirects after a successful POST (Post/Redirect/Get: 303 See Other, RFC 9110 §15.4.4). */
  seeOther(req: Request, res: Response, message: string, location: string): void {
    this.flash(req, message);
    res.redirect(303, location);
  }

  /**
   * Makes one change of the back office and keeps its audit entry, as one unit: when the
   * resource's processor keeps the audit log too (the default) and can make units
   * (`AtomicStateProcessor`: MemoryState, the SQL store), the item's write and the entry's insert
   * are one transaction, so both are kept or neither is. Otherwise the entry is written after the
   * change. The entry is logged through `req.log` (the profiler's Logs panel) once kept.
   * @param write - the change, made through the processor it is given
   * @param audited - what to record for the change's outcome; undefined when it changed nothing
   * @returns the change's outcome
   * @throws StorageUnavailableError (503) `Audit log storage is unavailable.` when the entry
   *   cannot be written (see {@link isAuditFailure}); in a unit, the change was not kept either
   */
  async change<T extends WriteOutcome | DeleteOutcome>(
    req: Request,
    admin: AdminResource,
    write: (processor: StateProcessor) => Promise<T>,
    audited: (outcome: T) => AuditedChange | undefined,
  ): Promise<T> {
    const processor = admin.resource.processor!;
    const context = this.stateContext(req);
    let entry: AuditEntry | undefined;
    const unit = async (target: StateProcessor, audit: AuditLog): Promise<T> => {
      const outcome = await write(target);
      const change = audited(outcome);
      entry = undefined;
      if (change === undefined) return outcome;
      const { action, item, changes } = change;
      const username = req.user?.identifier ?? null;
      entry = {
        occurredAt: new Date().toISOString(), username, action, resource: admin.shortName, itemId: item.id,
        label: itemLabel(admin, item), changes,
      };
      await audit.record(entry, context);
      return outcome;
    };
    const outcome = isAtomic(processor) && processor === this.options.auditStore.processor
      ? await processor.atomically((store) => unit(store, new AuditLog({ provider: store, processor: store })), context)
      : await unit(processor, this.audit);
    if (entry !== undefined) {
      const what = `admin: ${admin.shortName} ${entry.itemId} ${entry.action}d by ${entry.username ?? 'anonymous'}`;
      requestLog(req)?.info({ audit: entry }, what);
    }
    return outcome;
  }

  /**
   * The choices of a relation's select: the target's items by label, when it has at most
   * `relationSelectLimit` of them (one query of that many plus one).
   * @param target - the target's short name
   * @returns the choices, or null when the target has more items (the relation picker's case)
   */
  async relationChoices(req: Request, target: string): Promise<Choice[] | null> {
    const admin = this.admins.get(target);
    if (admin === undefined) return [];
    const limit = this.options.relationSelectLimit;
    const page = await admin.resource.provider!.provideCollection(admin.resource.metadata, {
      conditions: [], order: labelOrder(admin), page: 1, itemsPerPage: limit + 1, partial: true,
    }, this.stateContext(req));
    if (page.items.length > limit) return null;
    return page.items.map((item) => ({ value: String(item.id), label: itemLabel(admin, item) }));
  }

  /**
   * The id a relation's field names: an id (`12`) or the target's IRI (`/api/authors/12`).
   * @param target - the target's short name
   * @param value - as typed
   * @returns the id, or null when the value is neither
   */
  relatedId(target: string, value: string): ItemId | null {
    const text = value.trim();
    const type = this.identifiers[target];
    const id = idFromPath({ type, writable: false }, text);
    if (id !== null) return id;
    const prefix = this.prefixes[target];
    return prefix === undefined ? null : idFromIri(text, prefix, '', type);
  }

  /**
   * The labels of the related items the given items point to, by `<shortName>:<id>` (`#<id>` for
   * an item that is gone): one query per related resource, whatever the number of items.
   */
  async relationLabels(
    req: Request, admin: AdminResource, items: readonly StoredItem[],
  ): Promise<Map<string, string>> {
    const wanted = new Map<AdminResource, Set<ItemId>>();
    for (const field of admin.fields) {
      const target = field.relation === undefined ? undefined : this.admins.get(field.relation);
      if (target === undefined) continue;
      const ids = wanted.get(target) ?? new Set<ItemId>();
      const isId = (v: unknown): v is ItemId => typeof v === 'number' || typeof v === 'string';
      for (const item of items) {
        const id = item.data[field.name];
        if (isId(id)) ids.add(id);
        // a to-many relation (read-only here): each of its ids
        else if (Array.isArray(id)) for (const each of id as unknown[]) if (isId(each)) ids.add(each);
      }
      wanted.set(target, ids);
    }
    const labels = new Map<string, string>();
    for (const [target, ids] of wanted) {
      if (ids.size === 0) continue;
      const { provider, metadata } = target.resource;
      const page = await provider!.provideCollection(metadata, {
        conditions: [{ type: 'search', property: 'id', strategy: 'exact', values: [...ids] }],
        order: [], page: 1, itemsPerPage: ids.size, partial: true,
      }, this.stateContext(req));
      const found = new Map(page.items.map((related) => [related.id, related]));
      for (const id of ids) {
        const related = found.get(id);
        labels.set(`${target.shortName}:${id}`, related === undefined ? `#${id}` : itemLabel(target, related));
      }
    }
    return labels;
  }

  /**
   * Renders a page of `templates/admin/` with what every page shows: the translator, the
   * navigation, the user, the CSRF token of the forms (the session's, unless `context.token` gives
   * one), the flash messages and the language switcher (back to this page after a GET, else to
   * the dashboard).
   */
  render(req: Request, res: Response, status: number, template: string, context: Record<string, unknown>): void {
    const { t, lang } = this.translator(req);
    const html = TEMPLATES.render(`admin/${template}`, {
      ...context,
      t,
      lang,
      title: this.options.title ?? t('layout.title'),
      user: req.user?.identifier ?? null,
      stylesheet: `${mountPath(req)}${this.options.stylesheetPath}`,
      home: this.url(req),
      logout: this.url(req, 'logout'),
      nav: [...this.admins.values()].map((a) => ({ label: this.text(req, a.plural), url: this.url(req, a.slug) })),
      auditNav: this.url(req, 'audit'),
      // the forms' token (the session's); a page that gives its own (the login page) starts no session
      token: typeof context.token === 'string' ? context.token : csrfToken(req),
      flashes: this.takeFlash(req),
      languages: languageChoices(req, lang),
      languageAction: this.url(req, 'locale'),
      languageTarget: req.method === 'GET' && isLocalPath(req.originalUrl) ? req.originalUrl : this.url(req),
    });
    res.status(status).type('text/html; charset=utf-8').send(html);
  }
}
