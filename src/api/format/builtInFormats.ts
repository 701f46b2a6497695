import type { Format } from './Format';
import { json } from './json';
import { jsonhal } from './jsonhal';
import { jsonld } from './jsonld';

/** The formats that ship with the API layer, by name. */
export const BUILT_IN_FORMATS = Object.freeze({ jsonld, jsonhal, json }) satisfies Readonly<Record<string, Format>>;

/** The name of a built-in format. */
export type BuiltInFormatName = keyof typeof BUILT_IN_FORMATS;
