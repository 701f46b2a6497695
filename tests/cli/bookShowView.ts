/**
 * The demo's `book_show` route as `debug:router book_show` shows it, and `router:match` after its
 * `[OK]` line (Symfony's `TextDescriptor::describeRoute`, the same table for both commands; the
 * layout was compared with the Symfony 5.4 reference app, tests/fixtures/oracle/README.md). One
 * copy for tests/cli/debugRouter.test.ts and tests/cli/routerMatch.test.ts. Not a test file itself.
 */

/** The table's lines, the last one empty (the view ends with a newline). */
export const BOOK_SHOW_VIEW: readonly string[] = Object.freeze([
  '+--------------+-----------------------------------------+',
  '| Property     | Value                                   |',
  '+--------------+-----------------------------------------+',
  '| Route Name   | book_show                               |',
  '| Path         | /api/books/{id}.{_format}               |',
  '| Path Regex   | /^\\/api\\/books\\/(\\d+)(?:\\.([^/]+))?$/su |',
  '| Host         | ANY                                     |',
  '| Host Regex   |                                         |',
  '| Scheme       | ANY                                     |',
  '| Method       | GET                                     |',
  '| Requirements | id: \\d+                                 |',
  '| Class        | Route                                   |',
  '| Defaults     | _controller: Closure()                  |',
  '|              | _format: NULL                           |',
  '| Options      | errorRenderer: object(Closure)          |',
  '|              | errorRendererPrefix: /api               |',
  '|              | provider: object(Closure)               |',
  '|              | utf8: true                              |',
  '+--------------+-----------------------------------------+',
  '',
]);
