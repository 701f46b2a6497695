import type { Format } from './Format';
import { csv } from './csv';
import { json } from './json';
import { jsonhal } from './jsonhal';
import { jsonapi } from './jsonapi';
import { jsonld } from './jsonld';
import { xml } from './xml';

/** The formats that ship with the API layer, by name. */
export const BUILT_IN_FORMATS = Object.freeze({
  jsonld, jsonhal, json, jsonapi, csv, xml,
}) satisfies Readonly<Record<string, Format>>;

/** The name of a built-in format. */
export type BuiltInFormatName = keyof typeof BUILT_IN_FORMATS;
