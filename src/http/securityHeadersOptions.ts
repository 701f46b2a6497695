import helmet, { type HelmetOptions } from 'helmet';
import { z } from 'zod';
import { optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/**
 * The top-level options helmet 8 accepts (its `HelmetOptions`), each header's name first and its
 * legacy alias after: `switch` options take only `true`/`false`, `settings` options also take an
 * object of the header's settings. The settings themselves (CSP directives, HSTS `maxAge`...) are
 * helmet's to check.
 */
const HEADER_OPTIONS = {
  contentSecurityPolicy: 'settings',
  crossOriginEmbedderPolicy: 'settings',
  crossOriginOpenerPolicy: 'settings',
  crossOriginResourcePolicy: 'settings',
  originAgentCluster: 'switch',
  referrerPolicy: 'settings',
  strictTransportSecurity: 'settings',
  hsts: 'settings',
  xContentTypeOptions: 'switch',
  noSniff: 'switch',
  xDnsPrefetchControl: 'settings',
  dnsPrefetchControl: 'settings',
  xDownloadOptions: 'switch',
  ieNoOpen: 'switch',
  xFrameOptions: 'settings',
  frameguard: 'settings',
  xPermittedCrossDomainPolicies: 'settings',
  permittedCrossDomainPolicies: 'settings',
  xPoweredBy: 'switch',
  hidePoweredBy: 'switch',
  xXssProtection: 'switch',
  xssFilter: 'switch',
} as const satisfies Record<string, 'switch' | 'settings'>;

type HeaderOption = keyof typeof HEADER_OPTIONS;

/** helmet's legacy names and the option each duplicates (helmet refuses both at once). */
const ALIASES: readonly (readonly [alias: HeaderOption, option: HeaderOption])[] = [
  ['hsts', 'strictTransportSecurity'], ['noSniff', 'xContentTypeOptions'],
  ['dnsPrefetchControl', 'xDnsPrefetchControl'],
  ['ieNoOpen', 'xDownloadOptions'], ['frameguard', 'xFrameOptions'],
  ['permittedCrossDomainPolicies', 'xPermittedCrossDomainPolicies'], ['hidePoweredBy', 'xPoweredBy'],
  ['xssFilter', 'xXssProtection'],
];

const isPlainObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One header's option: its type here, then helmet builds that header alone, so a value helmet
 * refuses is told under the option's own name, with helmet's words.
 */
function headerOption(name: HeaderOption): z.ZodOptional<z.ZodType<unknown>> {
  const kind = HEADER_OPTIONS[name];
  const type = kind === 'switch'
    ? z.boolean({ error: 'expected true or false' })
    : z.custom<unknown>((v) => typeof v === 'boolean' || isPlainObject(v), {
      error: 'expected true, false or an object of settings',
    });
  return type.superRefine((value, ctx) => {
    try {
      helmet({ [name]: value });
    } catch (e) {
      const message = `helmet refused it: ${(e instanceof Error ? e.message : String(e)).replace(/\.$/, '')}`;
      ctx.addIssue({ code: 'custom', message, input: value });
    }
  }).optional();
}

const headerOptions = optionsObject(Object.fromEntries(
  (Object.keys(HEADER_OPTIONS) as HeaderOption[]).map((name) => [name, headerOption(name)]),
)).superRefine((options, ctx) => {
  for (const [alias, option] of ALIASES) {
    if (options[alias] === undefined || options[option] === undefined) continue;
    const message = `sets the same header as "${option}"; give only one of them`;
    ctx.addIssue({ code: 'custom', path: [alias], message, input: options[alias] });
  }
});

/**
 * The options of {@link securityHeaders}: helmet's `HelmetOptions`, its input and output. The
 * top-level keys are checked here (a mistyped one gets "did you mean"), each header's settings by
 * helmet, at construction.
 */
export const securityHeadersOptionsSchema = z
  .custom<HelmetOptions>(isPlainObject, { error: 'expected helmet options (an object)' })
  .pipe(headerOptions)
  .pipe(z.custom<HelmetOptions>());

/**
 * Validates helmet's options once, at construction.
 * @param prefix - where they sit @default 'securityHeaders' (the kernel's option)
 * @returns the options, as given
 * @throws KernelConfigError `Invalid option "securityHeaders.xFrameOption": unknown option; did you
 *   mean "xFrameOptions"?`, or naming the header option helmet refused, with helmet's message
 */
export function resolveSecurityHeadersOptions(options: HelmetOptions, prefix = 'securityHeaders'): HelmetOptions {
  return parseOptions(securityHeadersOptionsSchema, options, prefix);
}
