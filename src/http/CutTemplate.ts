import { LRUCache } from 'lru-cache';
import { render } from './templates';

/** What nunjucks' autoescaping replaces (`lib.escape`, nunjucks 3), and with what. */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;', '"': '&quot;', '\'': '&#39;', '<': '&lt;', '>': '&gt;', '\\': '&#92;',
};
const ESCAPED = /[&"'<>\\]/g;

/** Escapes text as nunjucks' autoescaping does. */
export function escapeHtml(text: string): string {
  return text.replace(ESCAPED, (c) => ESCAPES[c]);
}

/**
 * Stands for slot `i` while a template is rendered once: private-use characters around a name, none
 * of which autoescaping changes.
 */
function sentinel(i: number): string {
  return `\uE000express-kernel-slot-${i}\uE001`;
}
const SENTINEL = /\uE000express-kernel-slot-(\d+)\uE001/;
const SENTINEL_START = '\uE000express-kernel-slot-';

/**
 * The same text, stored one byte per character when it fits (Latin-1). A piece cut from a page
 * that held the (private-use) sentinels is a slice of a two-byte string, and stays two-byte in V8
 * even when it is ASCII: every page built from it would be two-byte too (twice the memory, and
 * Node encodes each body to UTF-8 from UTF-16; see docs/benchmarks/not-found.md, "The 405").
 * A Latin-1 round trip through a Buffer makes a fresh one-byte copy.
 */
function compact(text: string): string {
  const copy = Buffer.from(text, 'latin1').toString('latin1');
  return copy === text ? copy : text;
}

/** A template's variables, given the values of its slots. */
export type SlotContext = (slots: readonly string[]) => Record<string, unknown>;

/**
 * A nunjucks template rendered once with a sentinel in each text slot (a context value the template
 * only echoes, auto-escaped) and cut at the sentinels: filling it costs each value's HTML escaping
 * (as nunjucks' autoescaping does it) and a concatenation, not a render. Everything in the context
 * that is not a slot must be the same for every fill: the caller keys its cut pages on it.
 */
export class CutTemplate {
  private constructor(private readonly pieces: readonly string[], private readonly slots: readonly number[]) {}

  /**
   * Renders `name` with sentinels in the slots and cuts it there. A slot that is empty in `check`
   * stays empty (a template may test it: `{% if token %}`); the cut page is for slots empty
   * exactly where `check`'s are.
   * @param name - the template, below `templates/`
   * @param context - the template's variables, given the slots' values
   * @param check - real values of the slots: the cut is kept only when filling it with them gives
   *   the template's own output, byte for byte
   * @returns the cut page, or undefined when a sentinel did not come out as it went in (a filter
   *   changed it) or the check failed: render that page each time
   */
  static cut(name: string, context: SlotContext, check: readonly string[]): CutTemplate | undefined {
    const parts = render(name, context(check.map((v, i) => (v === '' ? '' : sentinel(i))))).split(SENTINEL);
    const pieces = parts.filter((_, i) => i % 2 === 0).map(compact);
    if (pieces.some((p) => p.includes(SENTINEL_START))) return undefined;
    const page = new CutTemplate(pieces, parts.filter((_, i) => i % 2 === 1).map(Number));
    return page.fill(check) === render(name, context(check)) ? page : undefined;
  }

  /**
   * @param values - the slots' values, in the order the page was cut with
   * @returns the page with each value HTML-escaped in its places
   */
  fill(values: readonly string[]): string {
    const escaped = values.map(escapeHtml);
    let out = this.pieces[0];
    for (let i = 0; i < this.slots.length; i++) out += escaped[this.slots[i]] + this.pieces[i + 1];
    return out;
  }
}

/**
 * The cut pages of one template, by the caller's key (what the context holds besides the slots)
 * and by which slots are empty; at most `max` kept. A page that cannot be cut is rendered each time.
 */
export class CutTemplates {
  /** `false`: the page cannot be cut (rendered each time). */
  private readonly pages: LRUCache<string, CutTemplate | false>;

  /**
   * @param name - the template, below `templates/`
   * @param max - how many cut pages are kept (entries, least recently used dropped) @default 64
   */
  constructor(private readonly name: string, max = 64) {
    this.pages = new LRUCache({ max });
  }

  /**
   * @param key - names everything in the context that is not a slot (two contexts with the same
   *   key and slots must render the same page)
   * @param context - the template's variables, given the slots' values
   * @param values - the slots' values
   * @returns the HTML, as `render(name, context(values))` gives it
   * @throws what the template throws while rendering
   */
  render(key: string, context: SlotContext, values: readonly string[]): string {
    let mask = '';
    for (const v of values) mask += v === '' ? '0' : '1';
    const full = `${key}\u0000${mask}`;
    let page = this.pages.get(full);
    if (page === undefined) {
      page = CutTemplate.cut(this.name, context, values) ?? false;
      this.pages.set(full, page);
    }
    return page === false ? render(this.name, context(values)) : page.fill(values);
  }
}
