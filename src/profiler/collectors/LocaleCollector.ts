import { NegotiatedData, NegotiatedValueCollector } from './NegotiatedValueCollector';

/**
 * Data of the locale panel: the request's locale (e.g. `fr`) and which source chose it (the
 * route's `_locale`, the session, `Accept-Language`, the default).
 */
export type LocaleData = NegotiatedData<'locale'>;

/** The request's locale and which source chose it. Reads `req.localeInfo`; "not enabled" without the locale layer. */
export class LocaleCollector extends NegotiatedValueCollector<'locale'> {
  constructor() {
    super('locale', 'Locale', 'localeInfo', 'locale');
  }
}
