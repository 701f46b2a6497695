import type { Profile } from './Profile';
import type { ExceptionCollectorData } from './collectors/ExceptionCollector';
import type { MemoryData } from './collectors/MemoryCollector';
import { TimeData, waterfall, WaterfallBar } from './collectors/TimeCollector';

/** One compared field. */
export interface ComparedField {
  label: string;
  a: string;
  b: string;
  differs: boolean;
}

/** One layer of the two timelines, matched by name and occurrence. */
export interface ComparedEvent {
  name: string;
  /** Duration in profile a / b, in ms; undefined when the layer did not run there. */
  a?: number;
  b?: number;
  /** b − a in ms, when both ran. */
  delta?: number;
}

/** What the compare page shows. */
export interface Comparison {
  fields: ComparedField[];
  events: ComparedEvent[];
  /** Both waterfalls on the same scale (the longer request's duration). */
  barsA: WaterfallBar[];
  barsB: WaterfallBar[];
}

function timeOf(p: Profile): TimeData | undefined {
  return p.collectors.time as TimeData | undefined;
}

function durations(data: TimeData | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const e of data?.events ?? []) {
    const n = (seen.get(e.name) ?? 0) + 1;
    seen.set(e.name, n);
    out.set(n === 1 ? e.name : `${e.name} #${n}`, Math.round((e.end - e.start) * 1000) / 1000);
  }
  return out;
}

function exceptionOf(p: Profile): string {
  const top = (p.collectors.exception as ExceptionCollectorData | undefined)?.exceptions[0] ?? p.exception?.[0];
  return top === undefined ? '' : `${top.class}: ${top.message}`;
}

/**
 * Compares two profiles: request fields (status and route first), duration, memory, exception,
 * and the layers' timelines on a common scale.
 */
export function compareProfiles(a: Profile, b: Profile): Comparison {
  const ta = timeOf(a);
  const tb = timeOf(b);
  const ms = (t: TimeData | undefined): string => (t === undefined ? '' : `${Math.round(t.duration * 100) / 100} ms`);
  const mem = (p: Profile): string => {
    const m = p.collectors.memory as MemoryData | undefined;
    return m === undefined ? '' : `${(m.heapUsed / 1048576).toFixed(1)} MiB`;
  };
  const field = (label: string, x: string, y: string): ComparedField => ({ label, a: x, b: y, differs: x !== y });
  const fields = [
    field('HTTP Status', String(a.statusCode), String(b.statusCode)),
    field('Route', a.route ?? '(none)', b.route ?? '(none)'),
    field('Method', a.method, b.method),
    field('URL', a.url, b.url),
    field('Duration', ms(ta), ms(tb)),
    field('Heap used', mem(a), mem(b)),
    field('Exception', exceptionOf(a), exceptionOf(b)),
    field('IP', a.ip, b.ip),
    field('Profiled on', new Date(a.time).toISOString(), new Date(b.time).toISOString()),
  ];
  const da = durations(ta);
  const db = durations(tb);
  const names = [...da.keys(), ...[...db.keys()].filter((k) => !da.has(k))];
  const events = names.map((name) => {
    const x = da.get(name);
    const y = db.get(name);
    const delta = x !== undefined && y !== undefined ? Math.round((y - x) * 1000) / 1000 : undefined;
    return { name, a: x, b: y, delta };
  });
  const scale = Math.max(ta?.duration ?? 0, tb?.duration ?? 0);
  return { fields, events, barsA: waterfall(ta, scale), barsB: waterfall(tb, scale) };
}
