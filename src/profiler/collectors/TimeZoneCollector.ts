import { NegotiatedData, NegotiatedValueCollector } from './NegotiatedValueCollector';

/**
 * Data of the time zone panel: the request's IANA zone (e.g. `Europe/Paris`) and which source
 * chose it (the user, the session, the `Time-Zone` header, the `tz` cookie, the default).
 */
export type TimeZoneData = NegotiatedData<'timeZone'>;

/**
 * The request's time zone and which source chose it. Reads `req.timeZoneInfo`; "not enabled" without the time zone
 * layer.
 */
export class TimeZoneCollector extends NegotiatedValueCollector<'timeZone'> {
  constructor() {
    super('timezone', 'Time zone', 'timeZoneInfo', 'timeZone');
  }
}
