import type { Request, Response } from 'express';
import { BadRequestHttpError } from '../http/errors';
import { localeContextOf } from '../locale/localeLayer';
import { isLocalPath } from '../security/localPath';
import { requireSession } from '../session/requireSession';
import type { AdminApp } from './AdminApp';
import { CATALOGS } from './translations';

/**
 * The back office's language switcher (EasyAdmin's locale menu, without script): a small form
 * on every page posts the chosen locale; the session keeps it as `locale`, which the kernel's
 * locale layer reads before `Accept-Language` (Symfony's `_locale` session key). Until a
 * language is chosen, `Accept-Language` decides.
 * @module
 */

/** One language the switcher offers. */
export interface LanguageChoice {
  /** The enabled locale the session will hold, e.g. `fr` or `fr_FR`. */
  readonly locale: string;
  /** Its language (`fr`), for the button's `lang`. */
  readonly lang: string;
  /** The language's name in itself (`Français`), so a reader finds theirs whatever the page's language. */
  readonly label: string;
  /** True for the page's language. */
  readonly current: boolean;
}

/** The language's name in that language, capitalised (`fr` → `Français`). */
function ownName(lang: string): string {
  const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/**
 * The languages a request may switch to: each language the back office has a catalog for
 * (English, French) that the locale layer enables, as the first enabled locale of that language.
 * @param lang - the page's language (`translatorFor(req.locale).lang`)
 * @returns the choices, in the locale layer's order; empty without a locale layer (no one
 *   would read the choice) or with fewer than two languages
 */
export function languageChoices(req: Request, lang: string): LanguageChoice[] {
  const enabled = localeContextOf(req)?.options.enabledLocales ?? [];
  const seen = new Set<string>();
  const choices: LanguageChoice[] = [];
  for (const locale of enabled) {
    const language = locale.split(/[-_]/)[0].toLowerCase();
    if (seen.has(language) || !Object.hasOwn(CATALOGS, language)) continue;
    seen.add(language);
    choices.push({ locale, lang: language, label: ownName(language), current: language === lang });
  }
  return choices.length > 1 ? choices : [];
}

/**
 * `POST <prefix>/locale` (`_locale`, `_target_path`): keeps the chosen locale in the session and
 * answers 303 to `_target_path` (a local path, see `isLocalPath`; else the dashboard). No CSRF
 * token: a forged post changes only the language of the victim's pages, and the login page
 * (which starts no session) offers the switcher too.
 * @throws BadRequestHttpError (400) for a `_locale` the switcher does not offer, naming those it does
 * @throws HttpError 413 for a body over the form limit
 */
export function languageRoute(app: AdminApp) {
  return async function adminLanguage(req: Request, res: Response): Promise<void> {
    await app.readForm(req, res);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const choices = languageChoices(req, '');
    const choice = choices.find((c) => c.locale === body._locale);
    if (choice === undefined) {
      const offered = choices.map((c) => c.locale).join(', ') || 'none (no locale layer, or one language)';
      const given = JSON.stringify(typeof body._locale === 'string' ? body._locale.slice(0, 40) : '');
      throw new BadRequestHttpError(`Unknown language ${given}: expected one of ${offered}.`);
    }
    requireSession(req).locale = choice.locale;
    res.redirect(303, isLocalPath(body._target_path) ? body._target_path : app.url(req));
  };
}
