import type { Request } from 'express';
import { z } from 'zod';
import { functionOption, nonEmptyString, optionsObject } from '../config/optionSchemas';
import type { StoredItem } from '../api';
import { localizedTextSchema, type LocalizedText } from './localized';

/**
 * A custom action of a resource (EasyAdmin's `Action::new(...)->linkToCrudAction(...)` on the
 * index's rows, and `addBatchAction` on its selection): a function run on the chosen items, with
 * its label, its confirmation and its role. The built-in ones (`new`, `edit`, `delete`, batch
 * delete) are not configured here.
 * @module
 */

/** What an action's `run` is given besides its items. */
export interface AdminActionContext {
  /** The request (its user: `req.user`, its locale: `req.locale`). */
  readonly req: Request;
  /**
   * Changes some properties of an item and keeps the change in the audit log as an `update` (in
   * the same transaction when the store can). Values are stored values (a relation's target id,
   * a date `YYYY-MM-DD`), kept as given: the action's code is trusted, as a state processor is.
   * @param item - as `run` got it (its version is checked: a change made since is a conflict)
   * @param changes - the properties to set
   * @returns the item as stored after the change, or null when it changed or went meanwhile
   */
  readonly update: (item: StoredItem, changes: Readonly<Record<string, unknown>>) => Promise<StoredItem | null>;
  /** How the back office names an item (`Dune (#3)`), for the action's message. */
  readonly label: (item: StoredItem) => string;
}

/**
 * An action's function: given the chosen items (those that still exist, in the order chosen),
 * returns the message shown on the list afterwards, or nothing for the default (`<label>: done
 * for <n> item(s).`). A thrown error is a 500 (a bug of the action); a refusal is a message.
 */
export type AdminActionRun = (
  items: readonly StoredItem[], context: AdminActionContext,
) => Promise<string | void> | string | void;

/** Where an action is offered: on each row of the index (and the detail page), on the selection, or both. */
export type AdminActionScope = 'item' | 'batch' | 'both';

const NAME = 'expected a lowercase name such as "publish" or "mark-paid" (a URL segment: a-z, 0-9, -)';

/** The schema of one custom action (`crud.<Resource>.actions[i]`). */
export const adminActionSchema = optionsObject({
  /** The action's name, its URL segment (`/admin/books/3/action/publish`). */
  name: z.string({ error: NAME }).regex(/^[a-z][a-z0-9-]{0,39}$/, { error: NAME }),
  /** The button's text. */
  label: localizedTextSchema,
  /** Where it is offered. @default 'both' */
  scope: z.enum(['item', 'batch', 'both']).optional(),
  /**
   * Asked before running (a page naming the items, with this text above them); without it the
   * action runs on the first press.
   * @example { en: 'Feature these books on the home page?', fr: 'Mettre ces livres en avant ?' }
   */
  confirmation: localizedTextSchema.optional(),
  /**
   * The role it needs, besides the back office's own; hidden from users without it.
   * @default the back office's `role` only
   */
  role: nonEmptyString.optional(),
  /** What it does. */
  run: functionOption<AdminActionRun>('a function (items, context) => message | void'),
});

/** Options of one custom action. */
export type AdminActionOptions = z.input<typeof adminActionSchema>;

/** A checked custom action. */
export interface AdminAction {
  readonly name: string;
  readonly label: LocalizedText;
  readonly scope: AdminActionScope;
  readonly confirmation?: LocalizedText;
  readonly role?: string;
  readonly run: AdminActionRun;
}
