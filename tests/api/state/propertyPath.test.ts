/**
 * Dotted property paths through relations (src/api/state/propertyPath.ts): what they resolve
 * to, the condition they wrap, and why a path does not resolve.
 */
import fc from 'fast-check';
import { isResolvedPath, MAX_RELATIONS_CROSSED, propertyPath } from '../../../src/api/state/propertyPath';
import type { FilterCondition, PropertyMetadata, ResourceMetadata } from '../../../src/api/state/types';

const prop = (name: string, kind: PropertyMetadata['kind'], extra: Partial<PropertyMetadata> = {}): PropertyMetadata =>
  ({ name, kind, nullable: true, readOnly: false, writeOnly: false, ...extra });

const COUNTRY: ResourceMetadata = { shortName: 'Country', table: 'countries', properties: [prop('name', 'string')] };
const PUBLISHER: ResourceMetadata = {
  shortName: 'Publisher', table: 'publishers',
  properties: [prop('name', 'string'), prop('country', 'relation', { relation: 'Country' })],
};
const AUTHOR: ResourceMetadata = {
  shortName: 'Author', table: 'authors',
  properties: [prop('name', 'string'), prop('password', 'string', { writeOnly: true }),
    prop('publisher', 'relation', { relation: 'Publisher' }), prop('mentor', 'relation', { relation: 'Author' })],
};
const BOOK: ResourceMetadata = {
  shortName: 'Book', table: 'books',
  properties: [prop('title', 'string'), prop('author', 'relation', { relation: 'Author' }),
    prop('lost', 'relation', { relation: 'Gone' })],
};
const ALL = new Map([COUNTRY, PUBLISHER, AUTHOR, BOOK].map((r) => [r.shortName, r]));
const resolve = (shortName: string): ResourceMetadata | undefined => ALL.get(shortName);

const partial = (property: string, value: string): FilterCondition =>
  ({ type: 'search', property, strategy: 'partial', values: [value] });

describe('propertyPath(resource, path, resolve)', () => {
  test('a plain property resolves to itself and wraps nothing', () => {
    const path = propertyPath(BOOK, 'title', resolve);
    if (!isResolvedPath(path)) throw new Error(`unresolved: ${JSON.stringify(path)}`);
    expect({ owner: path.owner.shortName, property: path.property.name, relations: path.relations })
      .toEqual({ owner: 'Book', property: 'title', relations: [] });
    expect(path.wrap(partial('title', 'dune'))).toEqual(partial('title', 'dune'));
  });

  test('author.name: the condition on the author\'s name as a related condition on books', () => {
    const path = propertyPath(BOOK, 'author.name', resolve);
    if (!isResolvedPath(path)) throw new Error(`unresolved: ${JSON.stringify(path)}`);
    expect({ owner: path.owner.shortName, property: path.property.name }).toEqual({ owner: 'Author', property: 'name' });
    expect(path.wrap(partial('name', 'herb')))
      .toEqual({ type: 'related', property: 'author', target: AUTHOR, condition: partial('name', 'herb') });
  });

  test('three relations crossed nest three related conditions, the first relation outermost', () => {
    const path = propertyPath(BOOK, 'author.publisher.country.name', resolve);
    if (!isResolvedPath(path)) throw new Error(`unresolved: ${JSON.stringify(path)}`);
    expect(path.relations.map((r) => r.name)).toEqual(['author', 'publisher', 'country']);
    expect(path.wrap(partial('name', 'fr'))).toEqual({
      type: 'related', property: 'author', target: AUTHOR, condition: {
        type: 'related', property: 'publisher', target: PUBLISHER, condition: {
          type: 'related', property: 'country', target: COUNTRY, condition: partial('name', 'fr'),
        },
      },
    });
  });

  test('a path that does not resolve names its problem and segment', () => {
    const problem = (resource: ResourceMetadata, path: string): unknown => {
      const p = propertyPath(resource, path, resolve);
      return isResolvedPath(p) ? 'resolved' : { problem: p.problem, segment: p.segment, in: p.resource.shortName };
    };
    expect(problem(BOOK, 'auteur.name')).toEqual({ problem: 'unknown_property', segment: 'auteur', in: 'Book' });
    expect(problem(BOOK, 'author.nmae')).toEqual({ problem: 'unknown_property', segment: 'nmae', in: 'Author' });
    expect(problem(BOOK, 'author.password')).toEqual({ problem: 'unknown_property', segment: 'password', in: 'Author' });
    expect(problem(BOOK, 'title.length')).toEqual({ problem: 'not_a_relation', segment: 'title', in: 'Book' });
    expect(problem(BOOK, 'lost.name')).toEqual({ problem: 'unknown_resource', segment: 'lost', in: 'Book' });
    expect(problem(BOOK, 'author.')).toEqual({ problem: 'unknown_property', segment: '', in: 'Author' });
    expect(problem(BOOK, 'author.mentor.mentor.mentor.name'))
      .toEqual({ problem: 'too_deep', segment: 'mentor', in: 'Author' });
  });

  test('any string (an untrusted query parameter) resolves or names a problem, never throws, never nests deeper than the limit', () => {
    const segment = fc.constantFrom('author', 'mentor', 'publisher', 'country', 'name', 'title', 'x', '', 'password');
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(segment, { maxLength: 8 }).map((s) => s.join('.'))), (text) => {
      const path = propertyPath(BOOK, text, resolve);
      if (!isResolvedPath(path)) return;
      let depth = 0;
      for (let c = path.wrap(partial(path.property.name, 'a')); c.type === 'related'; c = c.condition) depth++;
      expect(depth).toBe(path.relations.length);
      expect(depth).toBeLessThanOrEqual(MAX_RELATIONS_CROSSED);
      expect(path.relations.map((r) => r.name).concat(path.property.name).join('.')).toBe(text);
    }), { numRuns: 500 });
  });
});
