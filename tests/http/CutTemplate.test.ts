import fc from 'fast-check';
import { CutTemplates } from '../../src/http/CutTemplate';
import { render } from '../../src/http/templates';
import { parseStack } from '../../src/support/stackTrace';

/** An error thrown from one place: every call has the same frames, whatever its message. */
function errorFrom(message: string): Error {
  return new Error(message);
}

const EXCEPTION_PAGE = 'error/exception.html.njk';
const SNIPPET = 'profiler/toolbar/snippet.html.njk';

describe('CutTemplates.render(key, context, values)', () => {
  test('is the exception page\'s own output, byte for byte, whatever the messages, token and link', () => {
    const pages = new CutTemplates(EXCEPTION_PAGE);
    fc.assert(fc.property(
      fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.string(), fc.string(), fc.boolean(),
      (outer, inner, token, tokenLink, withCause) => {
        const error = errorFrom(outer);
        const frames = parseStack(error.stack ?? '', outer);
        const chain = [{ class: 'NotFoundHttpError', message: outer, status: 404, frames }];
        if (withCause) chain.push({ class: 'ResourceNotFoundError', message: inner, status: 500, frames: [] });
        const context = (s: readonly string[]): Record<string, unknown> => ({
          message: s[0], status: 404, reason: 'Not Found', token: s[1], tokenLink: s[2],
          chain: chain.map((e, i) => ({ ...e, message: s[3 + i] })),
        });
        const values = [outer, token, tokenLink, ...chain.map((e) => e.message)];
        expect(pages.render(`404 ${withCause}`, context, values)).toBe(render(EXCEPTION_PAGE, context(values)));
      },
    ));
  });

  test('is the toolbar snippet\'s own output, with and without CSP nonces and base path', () => {
    const pages = new CutTemplates(SNIPPET);
    const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef') });
    const bases = fc.constantFrom('', '/app', '/a"b');
    fc.assert(fc.property(hex, bases, fc.string(), fc.string(), (token: string, base: string, script, style) => {
      const context = ([t, b, sn, st]: readonly string[]): Record<string, unknown> =>
        ({ token: t, base: b, scriptNonce: sn, styleNonce: st });
      const values = [token, base, script, style];
      expect(pages.render('', context, values)).toBe(render(SNIPPET, context(values)));
    }));
  });

  test('escapes markup in a slot as autoescaping does', () => {
    const pages = new CutTemplates(SNIPPET);
    const html = pages.render('', ([token, base]) => ({ token, base }), ['<b>&\'"', '', '', '']);
    expect(html).toContain('data-token="&lt;b&gt;&amp;&#39;&quot;"');
  });
});

describe('parseStack(stack, message)', () => {
  test('parses the frames of one code path once: two messages, the same frozen frames', () => {
    const [a, b] = ['first', 'second, longer\n    at fake (/etc/passwd:1:1)'].map((m) => errorFrom(m));
    const framesA = parseStack(a.stack ?? '', a.message);
    const framesB = parseStack(b.stack ?? '', b.message);
    expect(framesB).toBe(framesA);
    expect(Object.isFrozen(framesA) && framesA.every((f) => Object.isFrozen(f))).toBe(true);
    expect(framesA.some((f) => f.file === '/etc/passwd')).toBe(false);
    expect(parseStack(a.stack ?? '', a.message, { maxFrames: 1 })).toEqual(framesA.slice(0, 1));
  });
});
