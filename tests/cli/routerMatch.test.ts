import { routerMatch } from '../../src/cli/routerMatch';
import { createDemoRoutes } from '../../src/demo/routes';
import { Route, RouteCollection } from '../../src/routing';
import { BOOK_SHOW_VIEW } from './bookShowView';

// The expected outputs were compared byte for byte with `php bin/console router:match …` of the
// Symfony 5.4 reference app (tests/fixtures/oracle/README.md), which has the same table plus the profiler's
// routes (left out with -v) and `enabled_locales` (which adds `_locale` to the Requirements row).

const block = (text: string, width = 80): string => text + ' '.repeat(width - text.length);

describe('routerMatch(routes, pathInfo, options)', () => {
  const routes = createDemoRoutes();

  it('reports a route whose requirement fails as almost matching, then that none matches (exit 1)', () => {
    expect(routerMatch(routes, '/xx/about')).toEqual({
      output: [
        '',
        ' Route "localized_about" almost matches but requirement for "_locale" does not match (en|fr|de)',
        '',
        block(' [ERROR] None of the routes match the path "/xx/about"'),
        '',
        '',
      ].join('\n'),
      exitCode: 1,
      stream: 'stdout',
    });
  });

  it('reports each route of the path whose methods exclude the method (--method DELETE)', () => {
    const { output, exitCode } = routerMatch(routes, '/api/books', { method: 'DELETE' });
    expect(output).toBe([
      '',
      ' Route "book_list" almost matches but method "DELETE" does not match any of the required methods (GET)',
      ' Route "book_create" almost matches but method "DELETE" does not match any of the required methods (POST)',
      '',
      block(' [ERROR] None of the routes match the path "/api/books"'),
      '',
      '',
    ].join('\n'));
    expect(exitCode).toBe(1);
  });

  it('uppercases the method as Symfony\'s RequestContext does', () => {
    expect(routerMatch(routes, '/api/books', { method: 'delete' }).output)
      .toContain('method "DELETE" does not match any of the required methods (GET)');
  });

  it('lists a mix of requirement and method near-misses in matching order (/api/books/abc)', () => {
    expect(routerMatch(routes, '/api/books/abc').output).toBe([
      '',
      ' Route "book_show" almost matches but requirement for "id" does not match (\\d+)',
      ' Route "book_update" almost matches but method "GET" does not match any of the required methods (PUT, PATCH)',
      ' Route "book_delete" almost matches but method "GET" does not match any of the required methods (DELETE)',
      '',
      block(' [ERROR] None of the routes match the path "/api/books/abc"'),
      '',
      '',
    ].join('\n'));
  });

  it('prints [OK] and the debug:router view of the matching route (exit 0)', () => {
    const result = routerMatch(routes, '/api/books/5');
    expect(result.exitCode).toBe(0);
    expect(result.stream).toBe('stdout');
    expect(result.output).toBe([
      '',
      '',
      block(' [OK] Route "book_show" matches'),
      '',
      ...BOOK_SHOW_VIEW,
    ].join('\n'));
  });

  it('matches HEAD against a GET route', () => {
    expect(routerMatch(routes, '/api/books/5', { method: 'HEAD' }).exitCode).toBe(0);
  });

  it('prints only the [ERROR] block, after two line breaks, when nothing comes close', () => {
    expect(routerMatch(routes, '/nope').output).toBe(`\n\n${block(' [ERROR] None of the routes match the path "/nope"')}\n\n`);
  });

  it('with verbose, also says why every other route does not match', () => {
    const lines = routerMatch(routes, '/api/books', { method: 'DELETE', verbose: true }).output.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '',
      ' Route "home" does not match: Path "/" does not match',
      ' Route "api_entrypoint" does not match: Path "/api" does not match',
      ' Route "book_list" almost matches but method "DELETE" does not match any of the required methods (GET)',
    ]);
    expect(lines).toContain(' Route "boom" does not match: Path "/boom" does not match');
    // every route of the demo table
    expect(lines.filter((l) => l.startsWith(' Route "'))).toHaveLength(routes.all().length);
    expect(routes.all().length).toBeGreaterThan(30);
  });

  it('stops at the first matching route: later routes are not reported', () => {
    const out = routerMatch(routes, '/api/books', { verbose: true }).output;
    expect(out).toContain(' [OK] Route "book_list" matches');
    expect(out).not.toContain('book_create');
  });

  it('does not redirect: a missing trailing slash is no match (/hello)', () => {
    expect(routerMatch(routes, '/hello').exitCode).toBe(1);
  });

  it('wraps the [ERROR] block to min(terminal width, 120) columns', () => {
    const path = `/${'segment/'.repeat(12)}end`;
    const lines = routerMatch(routes, path, { terminalWidth: 60 }).output.split('\n');
    expect(lines[2]).toBe(block(' [ERROR] None of the routes match the path', 60));
    expect(lines[3].startsWith(`         "${path.slice(0, 50)}`)).toBe(true);
    expect(lines.slice(2, -2).every((l) => l.length === 60)).toBe(true);
    expect(routerMatch(routes, '/x', { terminalWidth: 300 }).output.split('\n')[2]).toHaveLength(120);
  });

  it('reports host and scheme near-misses with the context given', () => {
    const table = new RouteCollection()
      .add('api', new Route('/v1', { host: '{sub}.example.com', requirements: { sub: 'api' } }))
      .add('secure', new Route('/v1', { schemes: ['https'] }));
    const out = routerMatch(table, '/v1', { host: 'WWW.example.com' }).output;
    expect(out).toContain(' Route "api" almost matches but host "www.example.com" does not match the requirement ("{sub}.example.com")');
    expect(out).toContain(' Route "secure" almost matches but scheme "http" does not match any of the required schemes (https)');
    expect(routerMatch(table, '/v1', { host: 'api.example.com' }).output).toContain(' [OK] Route "api" matches');
    expect(routerMatch(table, '/v1', { scheme: 'HTTPS' }).output).toContain(' [OK] Route "secure" matches');
  });
});
