import fc from 'fast-check';
import { PlainErrorPage } from '../../src/http/PlainErrorPage';
import { render } from '../../src/http/templates';

describe('PlainErrorPage.render(status, reason, message)', () => {
  test('is the template\'s own output, byte for byte, whatever the message', () => {
    const page = new PlainErrorPage();
    fc.assert(fc.property(
      fc.constantFrom<[number, string]>([404, 'Not Found'], [405, 'Method Not Allowed'], [500, 'Internal Server Error']),
      fc.string({ unit: 'binary' }),
      ([status, reason], message) => {
        expect(page.render(status, reason, message)).toBe(render('error/error.html.njk', { status, reason, message }));
      },
    ));
  });

  test('escapes markup in the message and shows no message paragraph for an empty one', () => {
    const page = new PlainErrorPage();
    const html = page.render(404, 'Not Found', 'No route found for "GET http://h/<script>&\'\\"');
    expect(html).toContain('<p class="error-message">No route found for &quot;GET http://h/&lt;script&gt;&amp;&#39;&#92;&quot;</p>');
    expect(page.render(500, 'Internal Server Error', '')).not.toContain('error-message');
  });
});
