import { render } from './templates';

const TEMPLATE = 'error/error.html.njk';
/** Stands for the message while a status's page is rendered once; no character of it is escaped. */
const SENTINEL = '\u0000express-kernel-message\u0000';

/** What nunjucks' autoescaping replaces (`lib.escape`, nunjucks 3), and with what. */
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', '\'': '&#39;', '<': '&lt;', '>': '&gt;', '\\': '&#92;' };
const ESCAPED = /[&"'<>\\]/g;

/** Escapes text as nunjucks' autoescaping does. */
function escapeHtml(text: string): string {
  return text.replace(ESCAPED, (c) => ESCAPES[c]);
}

/** A status's page, cut around its message; `withMessage` undefined: render each time instead. */
interface CutPage {
  reason: string;
  withMessage?: readonly [string, string];
  withoutMessage: string;
}

/**
 * The kernel's plain error page (`templates/error/error.html.njk`, Symfony's
 * `HtmlErrorRenderer` non-debug page), rendered once per status and cut around the message: a
 * request then costs the message's HTML escaping (as nunjucks' autoescaping does it) and one
 * concatenation, not a template render. The output is the template's, byte
 * for byte; a page whose message does not appear exactly once is rendered each time.
 */
export class PlainErrorPage {
  private readonly byStatus = new Map<number, CutPage>();

  /**
   * @param status - the HTTP status (400–599: at most 200 pages are kept)
   * @param reason - its reason phrase, e.g. `Not Found`
   * @param message - the text shown under the title; empty shows none
   * @returns the HTML
   */
  render(status: number, reason: string, message: string): string {
    let page = this.byStatus.get(status);
    if (page === undefined || page.reason !== reason) {
      page = this.cut(status, reason);
      if (status >= 400 && status <= 599) this.byStatus.set(status, page);
    }
    if (message === '') return page.withoutMessage;
    if (page.withMessage === undefined) return render(TEMPLATE, { status, reason, message });
    return page.withMessage[0] + escapeHtml(message) + page.withMessage[1];
  }

  private cut(status: number, reason: string): CutPage {
    const parts = render(TEMPLATE, { status, reason, message: SENTINEL }).split(SENTINEL);
    return {
      reason,
      withMessage: parts.length === 2 ? [parts[0], parts[1]] : undefined,
      withoutMessage: render(TEMPLATE, { status, reason, message: '' }),
    };
  }
}
