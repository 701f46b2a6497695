import type { Request } from 'express';
import { CollectorSummary, DataCollector, NOT_ENABLED } from './DataCollector';
import { fromLayer, NotEnabled } from './layerData';

/** A value a layer chose from several sources (`{ locale: 'fr', source: 'route' }`), or "not enabled". */
export type NegotiatedData<K extends string> = NotEnabled | ({ enabled: true; source: string } & Record<K, string>);

/**
 * A collector for a layer that picks one value from several sources and says which (the locale
 * and time zone layers' `req.localeInfo` / `req.timeZoneInfo`): stores the value and its source,
 * "not enabled" without the layer; the toolbar shows the value.
 */
export abstract class NegotiatedValueCollector<K extends string> implements DataCollector<NegotiatedData<K>> {
  /**
   * @param requestKey - the request property the layer sets, e.g. `localeInfo`
   * @param field - the value's field in it and in the stored data, e.g. `locale`
   */
  protected constructor(
    readonly name: string,
    readonly label: string,
    private readonly requestKey: string,
    private readonly field: K,
  ) {}

  collect(req: Request): NegotiatedData<K> {
    type Enabled = { enabled: true; source: string } & Record<K, string>;
    return fromLayer<Record<string, unknown>, Enabled>(req, this.requestKey, (info) => (
      { enabled: true, [this.field]: String(info[this.field]), source: String(info.source) } as Enabled
    ));
  }

  /** The value. */
  summary(data: NegotiatedData<K>): CollectorSummary {
    return data.enabled ? { text: (data as Record<K, string>)[this.field], status: 'none' } : NOT_ENABLED;
  }
}
