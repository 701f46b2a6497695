import type { RequestHandler } from 'express';
import { createKernel, KernelConfigError } from '../../src';
import { RouteCollection } from '../../src/routing';

describe('createKernel(options) validation', () => {
  const routes = new RouteCollection();

  test('rejects a missing routing table, naming the option', () => {
    expect(() => createKernel({} as never)).toThrow('Invalid option "routes": expected a RouteCollection');
  });

  test('suggests the closest option for a typo', () => {
    expect(() => createKernel({ routes, debgu: true } as never)).toThrow('Invalid option "debgu": unknown option; did you mean "debug"?');
  });

  test('names nested options and shows the bad value', () => {
    expect(() => createKernel({ routes, trustedProxies: [''] })).toThrow(/Invalid option "trustedProxies\[0\]": .*\(got ""\)/);
    expect(() => createKernel({ routes, profiler: { allowdIps: [] } } as never)).toThrow('Invalid option "profiler.allowdIps": unknown option; did you mean "allowedIps"?');
  });

  test('names the layers\' options by their full path, checked by the layers\' own schemas', () => {
    expect(() => createKernel({ routes, security: { firewalls: [{ name: 'main', pattern: '^/(admin' }] } }))
      .toThrow(new RegExp('^Invalid option "security\\.firewalls\\[0\\]\\.pattern": not a valid regular expression: '
        + '.* \\(got "\\^/\\(admin"\\)\\.$'));
    expect(() => createKernel({ routes, security: { firewalls: [{ name: 'main' }, { name: 'main' }] } }))
      .toThrow('Invalid option "security.firewalls[1].name": another firewall has this name (got "main").');
    expect(() => createKernel({ routes, securityHeaders: { strictTransportSecurity: { maxAge: -1 } } }))
      .toThrow('Invalid option "securityHeaders.strictTransportSecurity": helmet refused it: '
        + 'Strict-Transport-Security: -1 is not a valid value for maxAge. Please choose a positive integer '
        + '(got {"maxAge":-1}).');
  });

  test('names the bad handler in a list of layer handlers', () => {
    const ok: RequestHandler = (_req, _res, next) => next();
    expect(() => createKernel({ routes, layers: { cors: [ok, 5 as never] } }))
      .toThrow('Invalid option "layers.cors[1]": expected an Express middleware function (got 5).');
  });

  test('throws a KernelConfigError with a stable code', () => {
    try {
      createKernel({ routes, debug: 'yes' } as never);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(KernelConfigError);
      expect((e as KernelConfigError).code).toBe('ERR_CONFIG_INVALID_OPTION');
      expect((e as KernelConfigError).option).toBe('debug');
    }
  });

  test('turns the profiler off outside debug mode', () => {
    expect(createKernel({ routes, debug: false }).profiler).toBeUndefined();
    expect(createKernel({ routes, debug: true }).profiler).toBeDefined();
  });

  test('freezes the resolved options', () => {
    const k = createKernel({ routes, debug: true, trustedProxies: ['10.0.0.0/8'] });
    expect(Object.isFrozen(k.kernelOptions)).toBe(true);
    expect(Object.isFrozen(k.kernelOptions.trustedProxies)).toBe(true);
  });
});

describe('the profiler is safe by default', () => {
  const routes = new RouteCollection();
  test('refuses to run with environment prod, naming the override', () => {
    expect(() => createKernel({ routes, debug: true, environment: 'prod' })).toThrow(/Invalid option "profiler.enabled": .*dangerouslyAllowInProduction/);
  });
  test('runs in prod only with the loudly named override, or not at all when debug is off', () => {
    expect(createKernel({ routes, debug: true, environment: 'prod', profiler: { dangerouslyAllowInProduction: true } }).profiler).toBeDefined();
    expect(createKernel({ routes, debug: false, environment: 'prod' }).profiler).toBeUndefined();
  });
});
