import { CutTemplates } from './CutTemplate';

/**
 * The kernel's plain error page (`templates/error/error.html.njk`, Symfony's
 * `HtmlErrorRenderer` non-debug page), rendered once per status and cut around the message (see
 * {@link CutTemplates}): a request then costs the message's HTML escaping (as nunjucks'
 * autoescaping does it) and one concatenation, not a template render. The output is the
 * template's, byte for byte.
 */
export class PlainErrorPage {
  private readonly pages = new CutTemplates('error/error.html.njk', 200);

  /**
   * @param status - the HTTP status
   * @param reason - its reason phrase, e.g. `Not Found`
   * @param message - the text shown under the title; empty shows none
   * @returns the HTML
   */
  render(status: number, reason: string, message: string): string {
    return this.pages.render(`${status} ${reason}`, ([m]) => ({ status, reason, message: m }), [message]);
  }
}
