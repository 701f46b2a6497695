import { z } from 'zod';
import { ReferenceType } from '../../routing/generator/UrlGenerator';

/**
 * API Platform's `urlGenerationStrategy` (`UrlGeneratorInterface::ABS_PATH`, `ABS_URL`,
 * `NET_PATH`): how the IRIs the API writes are spelled. Set API-wide
 * (`apiRoutes({ urlGenerationStrategy })`, API Platform's `defaults.url_generation_strategy`),
 * on a resource, or on one operation; the most specific wins.
 * @module
 */

/**
 * The three strategies, as the routing layer's {@link ReferenceType} (the values of Symfony's
 * and API Platform's `UrlGeneratorInterface` constants):
 * - `ReferenceType.ABSOLUTE_PATH` (1, the default): `/api/books/3`
 * - `ReferenceType.ABSOLUTE_URL` (0): `https://example.com/api/books/3`, the scheme and host of
 *   the request as the kernel sees them (a trusted proxy's `X-Forwarded-Proto`/`-Host`/`-Port`)
 * - `ReferenceType.NETWORK_PATH` (3): `//example.com/api/books/3`
 *
 * `RELATIVE_PATH` (2) is refused: a relative IRI names another item from each document it is in.
 */
export type UrlGenerationStrategy =
  | ReferenceType.ABSOLUTE_URL | ReferenceType.ABSOLUTE_PATH | ReferenceType.NETWORK_PATH;

/** The default: absolute paths (API Platform's `UrlGeneratorInterface::ABS_PATH`). */
export const DEFAULT_URL_GENERATION_STRATEGY: UrlGenerationStrategy = ReferenceType.ABSOLUTE_PATH;

const EXPECTED = 'expected ReferenceType.ABSOLUTE_PATH (1), ReferenceType.ABSOLUTE_URL (0) or '
  + 'ReferenceType.NETWORK_PATH (3) from express-kernel/routing';

/**
 * The option schema of a strategy: 0, 1 or 3; 2 (`RELATIVE_PATH`) and anything else is a
 * `KernelConfigError` naming the option, at start-up.
 */
export const urlGenerationStrategySchema = z.custom<UrlGenerationStrategy>(
  (v) => v === ReferenceType.ABSOLUTE_URL || v === ReferenceType.ABSOLUTE_PATH || v === ReferenceType.NETWORK_PATH,
  { error: (issue) => (issue.input === ReferenceType.RELATIVE_PATH
    ? `${EXPECTED}: a relative path cannot be an IRI` : EXPECTED) },
);
