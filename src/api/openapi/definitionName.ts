/**
 * The name of a schema in the OpenAPI document's `components.schemas`, as API Platform 3.4's
 * `DefinitionNameFactory` writes it: the resource's short name, `.<variant>` for a format other
 * than plain JSON (`jsonld`, `jsonhal`, `jsonapi`) or a body that differs from the output
 * (`input`, `patch`), then `-<groups>` when the serializer context has groups (joined by `_`),
 * every character but letters, digits, `.`, `-` and `_` replaced by `.` (`book:read` →
 * `book.read`: a component name must match `^[a-zA-Z0-9.\-_]+$`, OpenAPI 3.1 §4.8.7.1).
 * @param shortName - the resource's (`Book`)
 * @param variant - `jsonld`, `jsonhal`, `jsonapi`, `input`, `patch`; undefined for plain JSON
 * @param groups - the context's serializer groups, in declaration order; undefined or empty: none
 * @returns e.g. `Book`, `Book.jsonld-book.read`, `Book.jsonld-book.read_author.read`, `Book-book.write`
 * @example definitionName('Book', 'jsonld', new Set(['book:read'])) // 'Book.jsonld-book.read'
 */
export function definitionName(shortName: string, variant?: string, groups?: ReadonlySet<string>): string {
  const prefix = variant === undefined ? shortName : `${shortName}.${variant}`;
  const name = groups === undefined || groups.size === 0 ? prefix : `${prefix}-${[...groups].join('_')}`;
  return name.replace(/[^a-zA-Z0-9.\-_]/g, '.');
}
