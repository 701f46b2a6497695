import { debugRouter } from '../../src/cli/debugRouter';
import { createDemoRoutes } from '../../src/demo/routes';
import { Route, RouteCollection } from '../../src/routing';
import { BOOK_SHOW_VIEW } from './bookShowView';

// Layout, blank lines and messages were compared with `php bin/console debug:router …` of the
// Symfony 5.4 reference app (tests/fixtures/oracle/README.md), which lists the same twelve routes after the
// profiler's.

describe('debugRouter(routes, options)', () => {
  const routes = createDemoRoutes();

  describe('without a name', () => {
    it('lists all 47 demo routes in matching order with their methods, then a blank line', () => {
      expect(debugRouter(routes)).toEqual({
        output: [
          ' ---------------------------- ----------- -------- ------ ------------------------------------- ',
          '  Name                         Method      Scheme   Host   Path                                 ',
          ' ---------------------------- ----------- -------- ------ ------------------------------------- ',
          '  home                         GET         ANY      ANY    /                                    ',
          '  api_entrypoint               GET         ANY      ANY    /api                                 ',
          '  book_list                    GET         ANY      ANY    /api/books.{_format}                 ',
          '  book_create                  POST        ANY      ANY    /api/books.{_format}                 ',
          '  book_show                    GET         ANY      ANY    /api/books/{id}.{_format}            ',
          '  book_update                  PUT|PATCH   ANY      ANY    /api/books/{id}.{_format}            ',
          '  book_delete                  DELETE      ANY      ANY    /api/books/{id}.{_format}            ',
          '  author_get_collection        GET         ANY      ANY    /api/authors.{_format}               ',
          '  author_get                   GET         ANY      ANY    /api/authors/{id}.{_format}          ',
          '  author_post                  POST        ANY      ANY    /api/authors.{_format}               ',
          '  author_put                   PUT         ANY      ANY    /api/authors/{id}.{_format}          ',
          '  author_patch                 PATCH       ANY      ANY    /api/authors/{id}.{_format}          ',
          '  author_delete                DELETE      ANY      ANY    /api/authors/{id}.{_format}          ',
          '  api_jsonld_context           GET         ANY      ANY    /api/contexts/{shortName}            ',
          '  api_doc                      GET         ANY      ANY    /api/docs.jsonld                     ',
          '  api_docs_page                GET         ANY      ANY    /api/docs                            ',
          '  api_docs_openapi             GET         ANY      ANY    /api/docs.json                       ',
          '  api_docs_asset               GET         ANY      ANY    /api/docs/ui/{file}                  ',
          '  hello_slash                  GET         ANY      ANY    /hello/                              ',
          '  plain                        GET         ANY      ANY    /plain                               ',
          '  localized_about              GET         ANY      ANY    /{_locale}/about                     ',
          '  admin_dashboard              GET         ANY      ANY    /admin                               ',
          '  admin_audit                  GET         ANY      ANY    /admin/audit                         ',
          '  admin_login                  GET         ANY      ANY    /admin/login                         ',
          '  admin_logout                 POST        ANY      ANY    /admin/logout                        ',
          '  admin_locale                 POST        ANY      ANY    /admin/locale                        ',
          '  admin_stylesheet             GET         ANY      ANY    /bundles/admin/admin.css             ',
          '  admin_books_index            GET         ANY      ANY    /admin/books                         ',
          '  admin_books_export           GET         ANY      ANY    /admin/books/export.csv              ',
          '  admin_books_new              GET|POST    ANY      ANY    /admin/books/new                     ',
          '  admin_books_new_pick         POST        ANY      ANY    /admin/books/new/pick/{field}        ',
          '  admin_books_batch_delete     POST        ANY      ANY    /admin/books/batch-delete            ',
          '  admin_books_batch_action     POST        ANY      ANY    /admin/books/batch/{action}          ',
          '  admin_books_detail           GET         ANY      ANY    /admin/books/{id}                    ',
          '  admin_books_edit             GET|POST    ANY      ANY    /admin/books/{id}/edit               ',
          '  admin_books_edit_pick        POST        ANY      ANY    /admin/books/{id}/edit/pick/{field}  ',
          '  admin_books_delete           GET|POST    ANY      ANY    /admin/books/{id}/delete             ',
          '  admin_books_toggle           POST        ANY      ANY    /admin/books/{id}/toggle/{field}     ',
          '  admin_books_action           GET|POST    ANY      ANY    /admin/books/{id}/action/{action}    ',
          '  admin_authors_index          GET         ANY      ANY    /admin/authors                       ',
          '  admin_authors_export         GET         ANY      ANY    /admin/authors/export.csv            ',
          '  admin_authors_new            GET|POST    ANY      ANY    /admin/authors/new                   ',
          '  admin_authors_batch_delete   POST        ANY      ANY    /admin/authors/batch-delete          ',
          '  admin_authors_detail         GET         ANY      ANY    /admin/authors/{id}                  ',
          '  admin_authors_edit           GET|POST    ANY      ANY    /admin/authors/{id}/edit             ',
          '  admin_authors_delete         GET|POST    ANY      ANY    /admin/authors/{id}/delete           ',
          '  boom                         GET         ANY      ANY    /boom                                ',
          '  api_time                     GET         ANY      ANY    /api/time                            ',
          ' ---------------------------- ----------- -------- ------ ------------------------------------- ',
          '',
          '',
        ].join('\n'),
        exitCode: 0,
        stream: 'stdout',
      });
    });

    it('adds the Controller column with showControllers', () => {
      const lines = debugRouter(routes, { showControllers: true }).output.split('\n');
      expect(lines[1]).toMatch(/ Path +Controller +$/);
      expect(lines[3]).toMatch(/^ {2}home +GET +ANY +ANY +\/ +App\\Controller\\AppController::home\(\) +$/);
    });

    it('lists in priority order, ANY for empty methods, schemes and host', () => {
      const table = new RouteCollection()
        .add('low', new Route('/low'))
        .add('high', new Route('/high', { host: 'example.com', schemes: ['https', 'http'] }), 10);
      expect(debugRouter(table).output.split('\n').slice(3, 5)).toEqual([
        '  high   ANY      https|http   example.com   /high  ',
        '  low    ANY      ANY          ANY           /low   ',
      ]);
    });

    it('prints the JSON collection keyed by name with --format json', () => {
      const { output, exitCode } = debugRouter(routes, { format: 'json' });
      expect(exitCode).toBe(0);
      const data = JSON.parse(output) as Record<string, { path: string; method: string }>;
      expect(Object.keys(data)).toEqual([...routes.all()].map(([n]) => n));
      expect(data.book_update).toMatchObject({ path: '/api/books/{id}.{_format}', method: 'PUT|PATCH' });
      expect(output).toContain('"path": "\\/api\\/books\\/{id}.{_format}"');
    });
  });

  describe('with a name', () => {
    it('shows the single-route view of book_show with Requirements id: \\d+', () => {
      const { output, exitCode } = debugRouter(routes, { name: 'book_show' });
      expect(exitCode).toBe(0);
      expect(output.split('\n')).toEqual(BOOK_SHOW_VIEW);
    });

    it('shows NO CUSTOM for a route without requirements', () => {
      expect(debugRouter(routes, { name: 'home' }).output).toMatch(/^\| Requirements \| NO CUSTOM +\|$/m);
    });

    it('fails with `The route "q" does not exist.` on stderr and exit code 1 for an unknown name', () => {
      const result = debugRouter(routes, { name: 'q' });
      expect(result.exitCode).toBe(1);
      expect(result.stream).toBe('stderr');
      expect(result.output).toBe([
        '',
        '                                 ',
        '  The route "q" does not exist.  ',
        '                                 ',
        '',
        'debug:router [--routes ROUTES] [--format FORMAT] [--show-controllers] [--show-aliases] [--check] [--] [<name>]',
        '',
        '',
      ].join('\n'));
    });

    it('shows the only route whose name contains the text, case-insensitively (non-interactive choice)', () => {
      expect(debugRouter(routes, { name: 'SHOW' }).output).toMatch(/\| Route Name {3}\| book_show +\|/);
    });

    it('lists the routes whose names contain the text when there are several', () => {
      const lines = debugRouter(routes, { name: 'book' }).output.split('\n');
      expect(lines.filter((l) => l.startsWith('  book_')).map((l) => l.trim().split(/ +/)[0]))
        .toEqual(['book_list', 'book_create', 'book_show', 'book_update', 'book_delete']);
    });

    it('prints getRouteData() as JSON with --format json', () => {
      const data = JSON.parse(debugRouter(routes, { name: 'book_show', format: 'json' }).output) as Record<string, unknown>;
      expect(data).toMatchObject({ path: '/api/books/{id}.{_format}', method: 'GET', requirements: { id: '\\d+' }, options: { provider: {} } });
    });
  });

  it('fails with `Unsupported format "xml".` for a format other than txt and json', () => {
    const result = debugRouter(routes, { format: 'xml' });
    expect(result).toMatchObject({ exitCode: 1, stream: 'stderr' });
    expect(result.output).toContain('  Unsupported format "xml".  ');
  });

  it('reports an unknown name before an unsupported format, as Symfony does', () => {
    expect(debugRouter(routes, { name: 'nosuch', format: 'xml' }).output).toContain('The route "nosuch" does not exist.');
  });
});
