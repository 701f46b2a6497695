import { invalidOption } from '../../../config/optionError';
import { enumOptions, zodDef } from '../../schema/zodDef';
import { defineKind, isString, scalarWire, TEXT_COLUMN } from '../kindSupport';
import { TEXT_FILTERS } from './string';

/**
 * `enum` (`z.enum(['draft', 'published'])`): one of a list of strings, kept as text; a select in
 * the back office. Its metadata lists the values (`enumValues`).
 * @module
 */

/** The enum kind. */
export const ENUM_KIND = defineKind<'enum'>({
  kind: 'enum',
  schemaHint: 'enum',
  fromSchema: (u, option) => {
    if (zodDef(u.inner).type !== 'enum') return undefined;
    const values = enumOptions(u.inner);
    if (!values.every((v) => typeof v === 'string')) throw invalidOption(option, 'expected an enum of strings', values);
    return { kind: 'enum', enumValues: Object.freeze([...values]) };
  },
  ...scalarWire('string', isString),
  filters: TEXT_FILTERS,
  textSearch: true,
  queryValueSchema: (p) => ({ type: 'string', enum: [...(p.enumValues ?? [])] }),
  fromQuery: (value, p) => (p.enumValues !== undefined && !p.enumValues.includes(value)
    ? { expected: `one of ${p.enumValues.join(', ')}` } : { value }),
  hydraRange: () => 'xmls:string',
  link: false,
  sql: TEXT_COLUMN,
});
