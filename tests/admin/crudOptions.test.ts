/**
 * The back office's per-resource configuration (`adminRoutes({ crud })`) checked at start-up:
 * each mistake is a `KernelConfigError` naming the option by its full path, with "did you mean"
 * for a mistyped name, before any request. On resources of the tests' own (`Gadget`, `Maker`).
 */
import { z } from 'zod';
import { adminRoutes, type AdminOptions } from '../../src/admin';
import { defineResource, MemoryState, readOnly, relation, text, writeOnly } from '../../src/api';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { localized } from '../../src/admin/localized';

const state = new MemoryState();
const maker = defineResource({
  shortName: 'Maker',
  schema: z.object({ id: readOnly(z.int()), name: z.string() }),
  provider: state, processor: state,
});
const gadget = defineResource({
  shortName: 'Gadget',
  schema: z.object({
    id: readOnly(z.int()),
    name: z.string(),
    price: z.number(),
    inStock: z.boolean(),
    notes: text(z.string()).optional(),
    status: z.enum(['draft', 'live']),
    releasedOn: z.iso.date().optional(),
    secret: writeOnly(z.string()).optional(),
    maker: relation('Maker').nullable().optional(),
  }),
  provider: state, processor: state,
});

/** The error `adminRoutes` throws for `crud`, or undefined when it accepts it. */
function refusal(crud: unknown): KernelConfigError | undefined {
  try {
    adminRoutes({ resources: [gadget, maker], crud: crud as AdminOptions['crud'] });
    return undefined;
  } catch (e) {
    if (e instanceof KernelConfigError) return e;
    throw e;
  }
}

const run = (): undefined => undefined;

describe('checkCrud: a configuration that does not fit is refused at start-up', () => {
  test.each<[string, unknown, string, RegExp]>([
    ['a mistyped option', { Gadget: { entityLabelInSingluar: 'Gadget' } },
      'admin.crud.Gadget.entityLabelInSingluar', /unknown option; did you mean "entityLabelInSingular"\?/],
    ['a mistyped field option', { Gadget: { fields: { name: { lable: 'Name' } } } },
      'admin.crud.Gadget.fields.name.lable', /unknown option; did you mean "label"\?/],
    ['a resource that is not listed', { Gadgte: {} }, 'admin.crud.Gadgte', /not a listed resource; did you mean "Gadget"\?/],
    ['an unknown field', { Gadget: { fields: { nmae: { label: 'Name' } } } },
      'admin.crud.Gadget.fields.nmae', /unknown field; did you mean "name"\?/],
    ['an unknown column', { Gadget: { index: ['id', 'prise'] } },
      'admin.crud.Gadget.index[1]', /unknown field; did you mean "price"\?/],
    ['an unknown detail line', { Gadget: { detail: ['maker', 'stauts'] } },
      'admin.crud.Gadget.detail[1]', /unknown field; did you mean "status"\?/],
    ['an unknown form field', { Gadget: { form: ['nam'] } }, 'admin.crud.Gadget.form[0]', /did you mean "name"\?/],
    ['an unknown search field', { Gadget: { searchFields: ['nme'] } },
      'admin.crud.Gadget.searchFields[0]', /did you mean "name"\?/],
    ['an unknown sort field', { Gadget: { defaultSort: { prize: 'asc' } } },
      'admin.crud.Gadget.defaultSort.prize', /did you mean "price"\?/],
    ['an unknown label property', { Gadget: { labelProperty: 'nane' } },
      'admin.crud.Gadget.labelProperty', /did you mean "name"\?/],
    ['an unknown choice value', { Gadget: { fields: { status: { choices: { drafty: 'Draft' } } } } },
      'admin.crud.Gadget.fields.status.choices.drafty', /unknown value; did you mean "draft"\?/],
    ['a type that does not exist', { Gadget: { fields: { name: { type: 'slider' } } } },
      'admin.crud.Gadget.fields.name.type', /expected "text" or "textarea" .* \(got "slider"\)/],
    ['a type that does not fit the property', { Gadget: { fields: { name: { type: 'money', currency: 'EUR' } } } },
      'admin.crud.Gadget.fields.name.type', /a type for a string property: text, textarea, email, url, choice \(got "money"\)/],
    ['a boolean shown as a number', { Gadget: { fields: { inStock: { type: 'number' } } } },
      'admin.crud.Gadget.fields.inStock.type', /a type for a boolean property: boolean \(got "number"\)/],
    ['an option of another type', { Gadget: { fields: { name: { dateStyle: 'long' } } } },
      'admin.crud.Gadget.fields.name.dateStyle', /only a date or datetime field has it; this one is text/],
    ['money without its currency', { Gadget: { fields: { price: { type: 'money' } } } },
      'admin.crud.Gadget.fields.price.currency', /a money field needs its currency/],
    ['a currency that is no ISO code', { Gadget: { fields: { price: { type: 'money', currency: 'euro' } } } },
      'admin.crud.Gadget.fields.price.currency', /ISO 4217 .* \(got "euro"\)/],
    ['a choice of a string without choices', { Gadget: { fields: { name: { type: 'choice' } } } },
      'admin.crud.Gadget.fields.name.choices', /needs its choices/],
    ['a label by a key that is no locale', { Gadget: { fields: { name: { label: { english: 'Name' } } } } },
      'admin.crud.Gadget.fields.name.label', /by locale .* \(got \{"english":"Name"\}\)/],
    ['an empty label in a locale', { Gadget: { entityLabelInPlural: { en: 'Gadgets', fr: ' ' } } },
      'admin.crud.Gadget.entityLabelInPlural', /non-empty string/],
    ['an empty locale map', { Gadget: { help: {} } }, 'admin.crud.Gadget.help', /non-empty string/],
    ['a label that is a number', { Gadget: { fields: { name: { help: 3 } } } }, 'admin.crud.Gadget.fields.name.help', /got 3/],
    ['a field twice on a page', { Gadget: { index: ['name', 'name'] } }, 'admin.crud.Gadget.index[1]', /each field once/],
    ['a write-only column', { Gadget: { index: ['secret'] } }, 'admin.crud.Gadget.index[0]', /write-only field is never shown/],
    ['a search on a number', { Gadget: { searchFields: ['price'] } },
      'admin.crud.Gadget.searchFields[0]', /a string, text or enum field/],
    ['a mistyped field of a related resource', { Gadget: { searchFields: ['name', 'maker.nmae'] } },
      'admin.crud.Gadget.searchFields[1]', /unknown field of Maker; did you mean "name"\?/],
    ['a mistyped relation in a search path', { Gadget: { searchFields: ['makr.name'] } },
      'admin.crud.Gadget.searchFields[0]', /unknown field of Gadget; did you mean "maker"\?/],
    ['a search path through a property that is no relation', { Gadget: { searchFields: ['status.name'] } },
      'admin.crud.Gadget.searchFields[0]', /expected a relation before each dot; Gadget.status is not one/],
    ['a search path to a related number', { Gadget: { searchFields: ['maker.id'] } },
      'admin.crud.Gadget.searchFields[0]', /unknown field of Maker/],
    ['a default sort on a field that does not sort', { Gadget: { defaultSort: { notes: 'asc' } } },
      'admin.crud.Gadget.defaultSort.notes', /a field that sorts the index/],
    ['a default sort that is no direction', { Gadget: { defaultSort: { name: 'up' } } },
      'admin.crud.Gadget.defaultSort.name', /"asc" or "desc"/],
    ['a label property that is no string', { Gadget: { labelProperty: 'price' } },
      'admin.crud.Gadget.labelProperty', /a string property that is shown/],
    ['a page size of 0', { Gadget: { paginatorPageSize: 0 } }, 'admin.crud.Gadget.paginatorPageSize', /≥ 1/],
    ['a page size above 100', { Gadget: { paginatorPageSize: 500 } }, 'admin.crud.Gadget.paginatorPageSize', /at most 100/],
    ['an action name that is no URL segment', { Gadget: { actions: [{ name: 'Mark paid', label: 'Pay', run }] } },
      'admin.crud.Gadget.actions[0].name', /lowercase name .* \(got "Mark paid"\)/],
    ['two actions of one name', { Gadget: { actions: [{ name: 'pay', label: 'Pay', run }, { name: 'pay', label: 'P', run }] } },
      'admin.crud.Gadget.actions[1].name', /one action per name/],
    ['an action without its function', { Gadget: { actions: [{ name: 'pay', label: 'Pay' }] } },
      'admin.crud.Gadget.actions[0].run', /a function/],
    ['an action of an unknown scope', { Gadget: { actions: [{ name: 'pay', label: 'Pay', scope: 'row', run }] } },
      'admin.crud.Gadget.actions[0].scope', /"item" or "batch" or "both"/],
  ])('%s', (_what, crud, option, message) => {
    const error = refusal(crud);
    expect(error).toBeInstanceOf(KernelConfigError);
    expect(error!.code).toBe('ERR_CONFIG_INVALID_OPTION');
    expect(error!.option).toBe(option);
    expect(error!.message).toMatch(message);
  });

  test('a configuration of every option that fits is accepted', () => {
    expect(refusal({
      Gadget: {
        entityLabelInSingular: { en: 'Gadget', fr: 'Gadget' }, entityLabelInPlural: { en: 'Gadgets', 'fr-CA': 'Bidules' },
        help: 'What we sell.',
        fields: {
          name: { label: { en: 'Name', fr: 'Nom' }, help: 'Unique.', type: 'text' },
          price: { type: 'money', currency: 'JPY', decimals: 0 },
          inStock: { renderAsSwitch: false },
          notes: { type: 'textarea', sortable: true },
          status: { choices: { draft: { en: 'Draft', fr: 'Brouillon' } } },
          releasedOn: { dateStyle: 'full' },
          maker: { label: 'Made by' },
        },
        index: ['name', 'id', 'price'], detail: ['id', 'name', 'notes'], form: ['price', 'name', 'secret'],
        searchFields: ['name', 'notes', 'status', 'maker.name'], defaultSort: { notes: 'desc', id: 'asc' },
        paginatorPageSize: 100, labelProperty: 'name',
        actions: [{ name: 'mark-paid', label: 'Paid', scope: 'batch', confirmation: 'Sure?', role: 'ROLE_X', run }],
      },
      Maker: { labelProperty: 'name' },
    })).toBeUndefined();
  });
});

describe('localized: the text of a locale', () => {
  const label = { en: 'Books', fr: 'Livres', fr_CA: 'Bouquins', 'pt-BR': 'Livros' };
  test.each([
    ['fr_CA', 'Bouquins'], ['fr-CA', 'Bouquins'], ['fr_BE', 'Livres'], ['fr', 'Livres'], ['pt_BR', 'Livros'],
    ['de', 'Books'], [undefined, 'Books'],
  ])('%s → %s', (locale, expected) => {
    expect(localized(label, locale)).toBe(expected);
  });

  test('a map without English falls back to its first text; a plain string is every locale\'s', () => {
    expect(localized({ fr: 'Livres', de: 'Bücher' }, 'en')).toBe('Livres');
    expect(localized('Books', 'fr')).toBe('Books');
  });
});
