import type { Request } from 'express';
import { ConfigCollector } from '../../../src/profiler/collectors/ConfigCollector';
import { REDACTED } from '../../../src/profiler/redaction';

/** A request of a kernel created with `kernelOptions` (what createKernel keeps on the app). */
function requestOf(kernelOptions: Record<string, unknown>): Request {
  return { app: { kernelOptions } } as unknown as Request;
}

describe('ConfigCollector.collect(req)', () => {
  it('shows boolean options named like secrets as true/false, and redacts the secrets themselves', () => {
    const data = new ConfigCollector().collect(requestOf({
      environment: 'test',
      debug: true,
      secret: 'kernel-secret-0123456789-abcdefghij',
      security: { firewalls: { main: { csrfProtection: true, stateless: false, accessToken: false } } },
      session: { secretRotation: false, saveUninitialized: false },
    }));
    expect(data.options).toEqual({
      environment: 'test',
      debug: true,
      secret: REDACTED,
      security: { firewalls: { main: { csrfProtection: true, stateless: false, accessToken: false } } },
      session: { secretRotation: false, saveUninitialized: false },
    });
  });
});
