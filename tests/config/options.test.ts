import fc from 'fast-check';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { invalidOption, optionPath, shown, unknownOptionMessage } from '../../src/config/optionError';
import { resolveCorsOptions } from '../../src/cors/options';
import { resolveSecurityHeadersOptions } from '../../src/http/securityHeadersOptions';
import { resolveKernelOptions } from '../../src/kernel/options';
import { resolveLocaleOptions } from '../../src/locale/options';
import { resolveRetention } from '../../src/profiler/storage/retention';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { resolveFirewallOptions } from '../../src/security/FirewallOptions';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { JsonLoginAuthenticator } from '../../src/security/JsonLoginAuthenticator';
import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import { RedisThrottleStore } from '../../src/security/RedisThrottleStore';
import { resolveSessionOptions } from '../../src/session/options';
import { resolveTimeZoneOptions } from '../../src/timezone/options';

const SECRET = 'x'.repeat(32);
const routes = new RouteCollection();
/** A Redis client that is never called: the store's constructor only checks its options. */
const notCalled = (): Promise<never> => Promise.reject(new Error('not called'));
const unusedRedis = { eval: notCalled, del: notCalled };

/** Each layer's validation, fed one options object. */
const LAYERS: Record<string, (options: Record<string, unknown>) => unknown> = {
  kernel: (o) => resolveKernelOptions({ routes, ...o }),
  cors: (o) => resolveCorsOptions({ paths: { '^/api': o } }),
  session: (o) => resolveSessionOptions({ secret: SECRET, ...o }),
  firewall: (o) => resolveFirewallOptions({ firewalls: [{ name: 'main', ...o }] }),
  security: (o) => resolveFirewallOptions({ firewalls: [{ name: 'main' }], ...o }),
  'kernel security': (o) => resolveKernelOptions({ routes, security: { firewalls: [{ name: 'main', ...o }] } }),
  securityHeaders: (o) => resolveSecurityHeadersOptions(o),
  HttpBasicAuthenticator: (o) => new HttpBasicAuthenticator(o),
  JsonLoginAuthenticator: (o) => new JsonLoginAuthenticator(o),
  RedisThrottleStore: (o) => new RedisThrottleStore(unusedRedis, o),
  locale: (o) => resolveLocaleOptions(o),
  timeZone: (o) => resolveTimeZoneOptions(o),
  'profiler.storage': (o) => resolveRetention(o),
};

describe('optionPath(prefix, segments)', () => {
  it('writes names with dots, indexes in brackets and other keys quoted', () => {
    expect(optionPath('cors', ['paths', '^/api', 'origins', 0])).toBe('cors.paths["^/api"].origins[0]');
    expect(optionPath('', ['errorTemplates', '404'])).toBe('errorTemplates.404');
    expect(optionPath('', ['debug'])).toBe('debug');
  });
});

describe('invalidOption(option, what, value, details)', () => {
  it('names the option, shows the value and ends with the hint', () => {
    expect(invalidOption('session.name', 'expected a cookie name', 'a b', { hint: 'did you mean "a_b"?' }).message)
      .toBe('Invalid option "session.name": expected a cookie name (got "a b"); did you mean "a_b"?');
    expect(invalidOption('x', 'expected a function', () => 1).message).toBe('Invalid option "x": expected a function (got a function).');
    expect(invalidOption('x', 'the secret is short', 'hunter2', { got: '7' }).message).toBe('Invalid option "x": the secret is short (got 7).');
  });

  it('shows any value without throwing', () => {
    fc.assert(fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true }), (value) => {
      expect(typeof shown(value)).toBe('string');
    }));
  });
});

describe('a misspelled key in each layer\'s options', () => {
  it.each([
    ['kernel', { debgu: true }, 'Invalid option "debgu": unknown option; did you mean "debug"?'],
    ['cors', { maxAg: 5 }, 'Invalid option "cors.paths["^/api"].maxAg": unknown option; did you mean "maxAge"?'],
    ['session', { ttlSecond: 60 }, 'Invalid option "session.ttlSecond": unknown option; did you mean "ttlSeconds"?'],
    ['firewall', { statless: true }, 'Invalid option "firewalls[0].statless": unknown option; did you mean "stateless"?'],
    ['locale', { defaultLocal: 'en' }, 'Invalid option "locale.defaultLocal": unknown option; did you mean "defaultLocale"?'],
    ['timeZone', { cookiename: 'tz' }, 'Invalid option "timeZone.cookiename": unknown option; did you mean "cookieName"?'],
    ['profiler.storage', { maxByte: 5 }, 'Invalid option "profiler.storage.maxByte": unknown option; did you mean "maxBytes"?'],
  ])('%s: gets a did-you-mean', (layer, options, message) => {
    expect(() => LAYERS[layer](options)).toThrow(KernelConfigError);
    expect(() => LAYERS[layer](options)).toThrow(message);
  });

  it.each([
    ['security', { accessControll: [] }, 'accessControll', 'accessControl'],
    ['security', { accessControl: [{ path: '^/', role: ['ROLE_USER'] }] }, 'accessControl[0].role', 'roles'],
    ['security', { throttling: { store: new MemoryThrottleStore(), maxAttempt: 3 } }, 'throttling.maxAttempt',
      'maxAttempts'],
    ['kernel security', { patern: '^/' }, 'security.firewalls[0].patern', 'pattern'],
    ['kernel', { layers: { firewal: [] } }, 'layers.firewal', 'firewall'],
    ['securityHeaders', { xFrameOption: { action: 'deny' } }, 'securityHeaders.xFrameOption', 'xFrameOptions'],
    ['securityHeaders', { contentSecurityPolice: false }, 'securityHeaders.contentSecurityPolice',
      'contentSecurityPolicy'],
    ['kernel', { securityHeaders: { hts: false } }, 'securityHeaders.hts', 'hsts'],
    ['HttpBasicAuthenticator', { relm: 'api' }, 'relm', 'realm'],
    ['JsonLoginAuthenticator', { checkpath: '/login' }, 'checkpath', 'checkPath'],
    ['RedisThrottleStore', { timeout: 5 }, 'timeout', 'timeoutMs'],
  ])('%s: %j names %s and suggests %s', (layer, options, option, name) => {
    expect(() => LAYERS[layer](options)).toThrow(KernelConfigError);
    const message = `Invalid option "${option}": unknown option; did you mean "${name}"?`;
    expect(() => LAYERS[layer](options)).toThrow(message);
  });

  it('lists the known options when no name is close', () => {
    expect(unknownOptionMessage('zzzzzzzz', ['default', 'cookieName'])).toBe('unknown option; expected one of default, cookieName.');
  });
});

describe('random wrong values', () => {
  /** An option, where it sits in the options object, and the path its error must name. */
  const CASES: readonly [string, string, string][] = [
    ['kernel', 'trustedHosts', 'trustedHosts'],
    ['kernel', 'errors', 'errors'],
    ['cors', 'maxAge', 'cors.paths["^/api"].maxAge'],
    ['cors', 'allowedHeaders', 'cors.paths["^/api"].allowedHeaders'],
    ['session', 'ttlSeconds', 'session.ttlSeconds'],
    ['session', 'cookieDomain', 'session.cookieDomain'],
    // a valid list without the default locale ("en") is told at locale.defaultLocale
    ['locale', 'enabledLocales', 'locale.'],
    ['timeZone', 'default', 'timeZone.default'],
    ['timeZone', 'cookieName', 'timeZone.cookieName'],
    ['profiler.storage', 'maxBytes', 'profiler.storage.maxBytes'],
    ['firewall', 'name', 'firewalls[0].name'],
    ['firewall', 'pattern', 'firewalls[0].pattern'],
    ['firewall', 'host', 'firewalls[0].host'],
    ['firewall', 'methods', 'firewalls[0].methods'],
    ['firewall', 'stateless', 'firewalls[0].stateless'],
    ['firewall', 'authenticators', 'firewalls[0].authenticators'],
    ['firewall', 'provider', 'firewalls[0].provider'],
    ['firewall', 'entryPoint', 'firewalls[0].entryPoint'],
    ['security', 'firewalls', 'firewalls'],
    ['security', 'accessControl', 'accessControl'],
    ['security', 'roleHierarchy', 'roleHierarchy'],
    ['security', 'throttling', 'throttling'],
    ['kernel security', 'pattern', 'security.firewalls[0].pattern'],
    ['kernel', 'security', 'security'],
    ['kernel', 'layers', 'layers'],
    ['kernel', 'securityHeaders', 'securityHeaders'],
    ['securityHeaders', 'contentSecurityPolicy', 'securityHeaders.contentSecurityPolicy'],
    ['securityHeaders', 'strictTransportSecurity', 'securityHeaders.strictTransportSecurity'],
    ['securityHeaders', 'xPoweredBy', 'securityHeaders.xPoweredBy'],
    ['HttpBasicAuthenticator', 'realm', 'realm'],
    ['JsonLoginAuthenticator', 'checkPath', 'checkPath'],
    ['RedisThrottleStore', 'timeoutMs', 'timeoutMs'],
  ];

  it.each(CASES)('%s %s: either accepted or a KernelConfigError naming %s', (layer, key, option) => {
    fc.assert(fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true }), (value) => {
      if (value === undefined) return;
      try {
        LAYERS[layer]({ [key]: value });
      } catch (e) {
        expect(e).toBeInstanceOf(KernelConfigError);
        expect((e as KernelConfigError).option.startsWith(option)).toBe(true);
        const { message } = e as Error;
        expect(message.startsWith(`Invalid option "${(e as KernelConfigError).option}": `)).toBe(true);
        expect(message).toMatch(/[.?]$/);
        expect(message).not.toMatch(/Invalid input/); // zod's own words never reach the user
      }
    }), { numRuns: 200 });
  });
});
