import type { Logger } from 'pino';
import { createKernel, Kernel } from '../kernel/createKernel';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import { createDemoRoutes } from './routes';

/** Options of {@link createDemoKernel}. */
export interface DemoKernelOptions {
  /** @default true */
  debug?: boolean;
  trustedProxies?: string[];
  profilerAllowedIps?: string[];
  profilerStorage?: ProfilerStorage;
  logger?: Logger;
}

/**
 * The demo service's kernel: the oracle's routing table behind every layer.
 * @returns the kernel (an Express application)
 */
export function createDemoKernel(options: DemoKernelOptions = {}): Kernel {
  return createKernel({
    routes: createDemoRoutes(),
    debug: options.debug ?? true,
    trustedProxies: options.trustedProxies ?? [],
    profiler: {
      allowedIps: options.profilerAllowedIps,
      storage: options.profilerStorage,
    },
    logger: options.logger,
  });
}
