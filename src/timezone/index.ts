/** The time zone layer: `req.timeZone` from the user, the session, a header, a cookie or the default. */
export { timeZoneLayer, resolveTimeZoneOptions } from './timeZoneLayer';
export type { TimeZoneOptions, ResolvedTimeZoneOptions, TimeZoneInfo, TimeZoneSource } from './timeZoneLayer';
export { timeZoneOptionsSchema } from './options';
export { formatInTimeZone } from './formatInTimeZone';
export type { ZonedFormatOptions } from './formatInTimeZone';
export { canonicalTimeZone, isValidTimeZone, supportedTimeZones } from './timeZones';
