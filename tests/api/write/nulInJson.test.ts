/**
 * A NUL character (U+0000) nested in a json property (an array or object value): PostgreSQL's
 * jsonb refuses `\u0000` anywhere in a document, so before this check such a body reached the
 * store and answered 500 there. Now the write's input check refuses it with the same 422
 * violation as a NUL in a top-level string, naming the path inside the value, before any store
 * is called (the same for MemoryState, SQLite and PostgreSQL).
 */
import { z } from 'zod';
import { defineResource, MemoryState, ValidationError } from '../../../src/api';
import { toStoredData } from '../../../src/api/write/inputData';

const state = new MemoryState();
const note = defineResource({
  shortName: 'Note',
  schema: z.object({
    title: z.string(),
    tags: z.array(z.string()).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  }),
  provider: state,
  processor: state,
});

const violationsOf = (body: Record<string, unknown>): unknown => {
  try {
    toStoredData(note, body, {}, '');
  } catch (e) {
    if (e instanceof ValidationError) return e.violations.map((v) => [v.propertyPath, v.code]);
    throw e;
  }
  return 'stored';
};

test.each([
  [{ title: 'a', tags: ['ok', 'x\u0000y'] }, 'tags.1'],
  [{ title: 'a', meta: { deep: { list: [1, 'n\u0000'] } } }, 'meta.deep.list.1'],
  [{ title: 'a', meta: { 'k\u0000': 'v' } }, 'meta.k\u0000'],
])('a NUL inside a json value is a 422 naming its path (%j)', (body, path) => {
  expect(violationsOf(body)).toEqual([[path, 'nul_character']]);
});

test('json values without a NUL are stored as they are', () => {
  expect(violationsOf({ title: 'a', tags: ['ok', 'ü'], meta: { deep: { list: [1, 'n'] } } })).toBe('stored');
});
