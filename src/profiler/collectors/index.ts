import type { Request } from 'express';
import type { LogBuffer } from '../requestLogger';
import { ConfigCollector } from './ConfigCollector';
import { CorsCollector } from './CorsCollector';
import type { DataCollector } from './DataCollector';
import { ExceptionCollector } from './ExceptionCollector';
import { LocaleCollector } from './LocaleCollector';
import { LoggerCollector } from './LoggerCollector';
import { MemoryCollector } from './MemoryCollector';
import { RequestCollector } from './RequestCollector';
import { RouterCollector } from './RouterCollector';
import { SecurityCollector } from './SecurityCollector';
import { SessionCollector } from './SessionCollector';
import { TimeCollector } from './TimeCollector';
import { TimeZoneCollector } from './TimeZoneCollector';

/**
 * The built-in collectors, in menu order (Symfony's: request, time, exception, logger, router,
 * security, config; memory, which Symfony shows only in the toolbar, gets a panel too).
 * @param logBufferOf - the request's log buffer, for the Logs panel
 */
export function builtInCollectors(logBufferOf: (req: Request) => LogBuffer | undefined): DataCollector[] {
  return [
    new RequestCollector(),
    new TimeCollector(),
    new MemoryCollector(),
    new ExceptionCollector(),
    new LoggerCollector(logBufferOf),
    new RouterCollector(),
    new SecurityCollector(),
    new SessionCollector(),
    new CorsCollector(),
    new LocaleCollector(),
    new TimeZoneCollector(),
    new ConfigCollector(),
  ];
}

export type { CollectorStatus, CollectorSummary, DataCollector } from './DataCollector';
export type { ConfigData } from './ConfigCollector';
export type { CorsData } from './CorsCollector';
export type { DatabaseData, DatabaseQuery } from './DatabaseCollector';
export type { ExceptionCollectorData, ExceptionEntry } from './ExceptionCollector';
export type { LocaleData } from './LocaleCollector';
export type { LoggerData } from './LoggerCollector';
export type { MemoryData } from './MemoryCollector';
export type { RequestData } from './RequestCollector';
export type { RouterData } from './RouterCollector';
export type { SecurityData, SecurityDecision } from './SecurityCollector';
export type { SessionData } from './SessionCollector';
export type { TimeData, TimelineEvent } from './TimeCollector';
export type { TimeZoneData } from './TimeZoneCollector';
