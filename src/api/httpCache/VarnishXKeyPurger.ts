import { z } from 'zod';
import { integerFrom, optionsObject } from '../../config/optionSchemas';
import { parseOptions } from '../../config/parseOptions';
import { PurgeFailedError, type Purger } from './Purger';

const URL_ERROR = 'expected an http(s) URL of a Varnish server, e.g. "http://127.0.0.1:6081"';

/** The schema of {@link VarnishXKeyPurgerOptions}, checked by the constructor. */
export const varnishXKeyPurgerOptionsSchema = optionsObject({
  /**
   * The Varnish servers to purge (API Platform's `http_cache.invalidation.urls`): each purge is a
   * `PURGE` request to each URL, as given (its path included).
   * @example ['http://varnish:80']
   */
  urls: z.array(z.string({ error: URL_ERROR }).regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, { error: URL_ERROR }), {
    error: 'expected an array of Varnish URLs',
  }).min(1, { error: 'expected at least one Varnish URL' }).readonly(),
  /**
   * The longest `xkey` header a purge sends, in bytes of ASCII; more IRIs are sent in several
   * purges (API Platform's `http_cache.invalidation.max_header_length`). Varnish refuses request
   * headers over its `http_req_hdr_len` (8 KB by default).
   * @default 7500
   */
  maxHeaderLength: integerFrom(1).optional(),
  /**
   * Between two keys of the header (API Platform's `xkey.glue`; vmod xkey splits on spaces and commas).
   * @default ' '
   */
  glue: z.enum([' ', ','], { error: 'expected " " or ","' }).optional(),
  /** How long one PURGE may take, in milliseconds, before it counts as failed. @default 5000 */
  timeoutMs: integerFrom(1).optional(),
});

/** Options of {@link VarnishXKeyPurger}. All optional but `urls`. */
export type VarnishXKeyPurgerOptions = z.input<typeof varnishXKeyPurgerOptionsSchema>;

/**
 * Purges Varnish by xkey (API Platform's `VarnishXKeyPurger`, for Varnish with
 * `vmod_xkey` from Debian's `varnish-modules`): responses carry an `xkey` header listing the IRIs
 * they contain, separated by spaces, and a purge is `PURGE <url>` with `xkey: <IRIs>`, which the
 * VCL answers with `xkey.purge(req.http.xkey)` (see the README's VCL). The IRIs of one purge are
 * split into as many requests as `maxHeaderLength` needs, in order, each sent to every URL.
 * @throws KernelConfigError for an unknown option, no URL, a URL that is not http(s)
 * @example new VarnishXKeyPurger({ urls: ['http://127.0.0.1:6081'] })
 */
export class VarnishXKeyPurger implements Purger {
  private readonly urls: readonly string[];
  private readonly maxHeaderLength: number;
  private readonly glue: string;
  private readonly timeoutMs: number;

  constructor(options: VarnishXKeyPurgerOptions) {
    const o = parseOptions(varnishXKeyPurgerOptionsSchema, options, 'VarnishXKeyPurger');
    this.urls = Object.freeze([...o.urls]);
    this.maxHeaderLength = o.maxHeaderLength ?? 7500;
    this.glue = o.glue ?? ' ';
    this.timeoutMs = o.timeoutMs ?? 5000;
  }

  /**
   * Sends the purges, one chunk after the other, each to every URL at once.
   * @throws PurgeFailedError when an IRI alone is longer than `maxHeaderLength` (nothing is
   *   sent), a server cannot be reached within `timeoutMs`, or it answers other than 2xx
   */
  async purge(iris: readonly string[]): Promise<void> {
    for (const keys of this.chunks(iris)) {
      await Promise.all(this.urls.map((url) => this.send(url, keys)));
    }
  }

  /** `{ xkey: '<IRIs joined by the glue>' }`. */
  getResponseHeaders(iris: readonly string[]): Readonly<Record<string, string>> {
    return { xkey: iris.join(this.glue) };
  }

  /** The IRIs joined by the glue, in as few headers of at most `maxHeaderLength` as order allows. */
  chunks(iris: readonly string[]): string[] {
    const out: string[] = [];
    let current = '';
    for (const iri of iris) {
      if (iri.length > this.maxHeaderLength) {
        throw new PurgeFailedError(
          `IRI "${iri.slice(0, 200)}" is longer than the purge's maxHeaderLength (${this.maxHeaderLength}); raise it.`,
          this.urls[0], iri.slice(0, 200),
        );
      }
      const candidate = current === '' ? iri : `${current}${this.glue}${iri}`;
      if (candidate.length <= this.maxHeaderLength) {
        current = candidate;
        continue;
      }
      out.push(current);
      current = iri;
    }
    if (current !== '') out.push(current);
    return out;
  }

  private async send(url: string, keys: string): Promise<void> {
    let response: Response;
    try {
      const signal = AbortSignal.timeout(this.timeoutMs);
      response = await fetch(url, { method: 'PURGE', headers: { xkey: keys }, signal });
      await response.arrayBuffer();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PurgeFailedError(`PURGE ${url} failed: ${reason}`, url, keys, { cause: error });
    }
    if (response.status < 200 || response.status > 299) {
      throw new PurgeFailedError(`PURGE ${url} answered ${response.status} ${response.statusText}`, url, keys);
    }
  }
}
