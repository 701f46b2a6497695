import type { HelmetOptions } from 'helmet';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { securityHeaders } from '../../src/http/securityHeaders';
import { resolveSecurityHeadersOptions } from '../../src/http/securityHeadersOptions';

describe('resolveSecurityHeadersOptions(options)', () => {
  test('gives back the options helmet accepts, functions included', () => {
    const nonce = (): string => "'nonce-1'";
    const options: HelmetOptions = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", nonce] } },
      hsts: { maxAge: 60 },
      xPoweredBy: false,
    };
    expect(resolveSecurityHeadersOptions(options)).toEqual(options);
  });

  test('a mistyped header option gets a did-you-mean', () => {
    expect(() => resolveSecurityHeadersOptions({ xFrameOption: { action: 'deny' } } as never))
      .toThrow('Invalid option "securityHeaders.xFrameOption": unknown option; did you mean "xFrameOptions"?');
  });

  test('a value helmet refuses is told under the header option\'s name, in helmet\'s words', () => {
    expect(() => resolveSecurityHeadersOptions({ contentSecurityPolicy: { directives: { 'bad name': [] } } }))
      .toThrow('Invalid option "securityHeaders.contentSecurityPolicy": helmet refused it: '
        + 'Content-Security-Policy received an invalid directive name "bad name" '
        + '(got {"directives":{"bad name":[]}}).');
    expect(() => resolveSecurityHeadersOptions({ xFrameOptions: { action: 'allow-from' as never } }))
      .toThrow('Invalid option "securityHeaders.xFrameOptions": helmet refused it: X-Frame-Options received an invalid '
        + 'action "allow-from" (got {"action":"allow-from"}).');
  });

  test('a header option takes true, false or settings; a switch only true or false', () => {
    expect(() => resolveSecurityHeadersOptions({ referrerPolicy: 'no-referrer' as never }))
      .toThrow('Invalid option "securityHeaders.referrerPolicy": expected true, false or an object of settings '
        + '(got "no-referrer").');
    expect(() => resolveSecurityHeadersOptions({ xPoweredBy: {} as never }))
      .toThrow('Invalid option "securityHeaders.xPoweredBy": expected true or false (got {}).');
  });

  test('a header set by its name and by its legacy alias at once is refused, naming the alias', () => {
    expect(() => resolveSecurityHeadersOptions({ strictTransportSecurity: { maxAge: 60 }, hsts: false } as never))
      .toThrow('Invalid option "securityHeaders.hsts": sets the same header as "strictTransportSecurity"; '
        + 'give only one of them (got false).');
  });

  test('securityHeaders(options) fails at construction with a KernelConfigError', () => {
    expect(() => securityHeaders({ strictTransportSecurity: { maxAge: -1 } })).toThrow(KernelConfigError);
  });
});
