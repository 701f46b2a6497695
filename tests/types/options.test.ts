/**
 * Type tests (expect-type): the public option types are the schemas' input and output, so a field
 * added to a schema is in the type, and the type cannot drift from what is validated (ts-jest
 * fails this file on a type error).
 */
import type { Request, RequestHandler } from 'express';
import { expectTypeOf } from 'expect-type';
import type { HelmetOptions } from 'helmet';
import type { z } from 'zod';
import type * as root from '../../src';
import type { CorsOptions } from '../../src/cors/options';
import { kernelOptionsSchema, type PluggableLayer } from '../../src/kernel/options';
import type { RouteCollection } from '../../src/routing/RouteCollection';
import type {
  AccessControlRule, AccessMap, Authenticator, FirewallConfig, FirewallOptions, LoginThrottler, LoginThrottlingOptions,
  ResolvedFirewallOptions, RoleHierarchy, ThrottleStore, UserProvider,
} from '../../src/security';
import { firewallOptionsSchema } from '../../src/security';
import type { LocaleOptions } from '../../src/locale/options';

describe('KernelOptions and ResolvedKernelOptions', () => {
  test('are the input and the output of kernelOptionsSchema, as the root entry exports them', () => {
    expectTypeOf<root.KernelOptions>().toEqualTypeOf<z.input<typeof kernelOptionsSchema>>();
    expectTypeOf<root.ResolvedKernelOptions>().toEqualTypeOf<z.output<typeof kernelOptionsSchema>>();
  });

  test('only routes is required', () => {
    expectTypeOf<{ routes: RouteCollection }>().toExtend<root.KernelOptions>();
    expectTypeOf<{ debug: true }>().not.toExtend<root.KernelOptions>();
    // @ts-expect-error a misspelled option is a compile error too
    const typo: root.KernelOptions = { routes: {} as RouteCollection, debgu: true };
    expect(typo).toBeDefined();
  });

  test('functions keep their parameter types, layers keep their own option types', () => {
    expectTypeOf<NonNullable<root.KernelOptions['onError']>>().parameters.toEqualTypeOf<[unknown, Request]>();
    expectTypeOf<NonNullable<root.KernelOptions['layers']>>()
      .toEqualTypeOf<Partial<Record<PluggableLayer, RequestHandler | RequestHandler[]>>>();
    expectTypeOf<root.KernelOptions['securityHeaders']>().toEqualTypeOf<HelmetOptions | false | undefined>();
    expectTypeOf<root.KernelOptions['security']>().toEqualTypeOf<FirewallOptions | undefined>();
    expectTypeOf<root.KernelOptions['cors']>().toEqualTypeOf<CorsOptions | undefined>();
    expectTypeOf<root.KernelOptions['locale']>().toEqualTypeOf<LocaleOptions | undefined>();
  });

  test('resolved: defaults applied, layer options kept as given', () => {
    expectTypeOf<root.ResolvedKernelOptions['debug']>().toEqualTypeOf<boolean>();
    expectTypeOf<root.ResolvedKernelOptions['errors']>().toEqualTypeOf<'render' | 'next'>();
    expectTypeOf<root.ResolvedKernelOptions['trustedHosts']>().toEqualTypeOf<readonly RegExp[]>();
    expectTypeOf<root.ResolvedKernelOptions['securityHeaders']>().toEqualTypeOf<HelmetOptions | false>();
    expectTypeOf<root.ResolvedKernelOptions['security']>().toEqualTypeOf<FirewallOptions | undefined>();
  });
});

describe('FirewallOptions and ResolvedFirewallOptions', () => {
  test('are the input and the output of firewallOptionsSchema', () => {
    expectTypeOf<FirewallOptions>().toEqualTypeOf<z.input<typeof firewallOptionsSchema>>();
    expectTypeOf<ResolvedFirewallOptions>().toEqualTypeOf<z.output<typeof firewallOptionsSchema>>();
  });

  test('class instances are typed as their interfaces; firewalls are required', () => {
    expectTypeOf<FirewallConfig['authenticators']>().toEqualTypeOf<Authenticator[] | undefined>();
    expectTypeOf<FirewallConfig['provider']>().toEqualTypeOf<UserProvider | undefined>();
    expectTypeOf<LoginThrottlingOptions['store']>().toEqualTypeOf<ThrottleStore>();
    expectTypeOf<NonNullable<AccessControlRule['allowIf']>>().parameters.toEqualTypeOf<[Request]>();
    expectTypeOf<{ accessControl: [] }>().not.toExtend<FirewallOptions>();
  });

  test('resolved: the access map, role hierarchy and throttler built', () => {
    expectTypeOf<ResolvedFirewallOptions['accessMap']>().toEqualTypeOf<AccessMap>();
    expectTypeOf<ResolvedFirewallOptions['roleHierarchy']>().toEqualTypeOf<RoleHierarchy>();
    expectTypeOf<ResolvedFirewallOptions['throttler']>().toEqualTypeOf<LoginThrottler | undefined>();
    expectTypeOf<ResolvedFirewallOptions['firewalls'][number]['sessionKey']>().toEqualTypeOf<`_security_${string}`>();
  });
});
