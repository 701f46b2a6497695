import {
  describeRouteCollectionJson,
  describeRouteCollectionText,
  describeRouteJson,
  describeRouteText,
  formatCallable,
  formatRouterConfig,
  formatValue,
  phpJsonEncode,
} from '../../src/cli/descriptor';
import { Route } from '../../src/routing';

function secureRoute(): Route {
  return new Route('/s/{page}', {
    host: '{sub}.example.com',
    schemes: ['https'],
    methods: ['get', 'post'],
    defaults: { page: 1, _format: null },
    requirements: { sub: 'api|www' },
    options: { utf8: true, list: ['a', 'b'], nested: { k: "it's" } },
    condition: function isAjax() { return false; },
    controller: function showPage() { /* nothing */ },
  });
}

describe('formatCallable(callable)', () => {
  it('prints a named function as name()', () => {
    expect(formatCallable(function bookShow() { /* nothing */ })).toBe('bookShow()');
  });

  it('prints an anonymous function, or one named "controller" by inference, as Closure()', () => {
    expect(formatCallable((() => () => 1)())).toBe('Closure()');
    const inline = { controller: () => 1 };
    expect(formatCallable(inline.controller)).toBe('Closure()');
  });

  it('drops the "bound " prefix of a bound function', () => {
    function list(): void { /* nothing */ }
    expect(formatCallable(list.bind(null))).toBe('list()');
  });

  it('appends () to a string, as Symfony does for "Class::method"', () => {
    expect(formatCallable('App\\Controller::show')).toBe('App\\Controller::show()');
  });
});

describe('formatValue(value)', () => {
  it('prints strings as they are and other scalars as var_export does', () => {
    expect(formatValue('x')).toBe('x');
    expect(formatValue(null)).toBe('NULL');
    expect(formatValue(true)).toBe('true');
    expect(formatValue(42)).toBe('42');
  });

  it('prints arrays and plain objects as one-line PHP arrays', () => {
    expect(formatValue(['a', null])).toBe("array (0 => 'a',1 => NULL,)");
    expect(formatValue({ k: "it's", n: { x: 1 } })).toBe("array ('k' => 'it\\'s','n' => array ('x' => 1,),)");
    expect(formatValue({})).toBe('array ()');
  });

  it('prints functions and class instances as object(Class)', () => {
    expect(formatValue(() => 1)).toBe('object(Closure)');
    expect(formatValue(new Date(0))).toBe('object(Date)');
  });
});

describe('formatRouterConfig(config)', () => {
  it('prints NONE when empty', () => {
    expect(formatRouterConfig({})).toBe('NONE');
  });

  it('prints key: value lines sorted by key', () => {
    expect(formatRouterConfig({ id: '\\d+', _locale: 'en|fr' })).toBe('_locale: en|fr\nid: \\d+');
  });
});

describe('describeRouteText(name, route)', () => {
  it('lists every property Symfony shows, Condition last', () => {
    expect(describeRouteText('secure', secureRoute())).toBe([
      '+--------------+----------------------------------+',
      '| Property     | Value                            |',
      '+--------------+----------------------------------+',
      '| Route Name   | secure                           |',
      '| Path         | /s/{page}                        |',
      '| Path Regex   | /^\\/s(?:\\/([^/]+))?$/su          |',
      '| Host         | {sub}.example.com                |',
      '| Host Regex   | /^(api|www)\\.example\\.com$/isu   |',
      '| Scheme       | https                            |',
      '| Method       | GET|POST                         |',
      '| Requirements | sub: api|www                     |',
      '| Class        | Route                            |',
      '| Defaults     | _controller: showPage()          |',
      '|              | _format: NULL                    |',
      '|              | page: 1                          |',
      "| Options      | list: array (0 => 'a',1 => 'b',) |",
      "|              | nested: array ('k' => 'it\\'s',)  |",
      '|              | utf8: true                       |',
      '| Condition    | isAjax                           |',
      '+--------------+----------------------------------+',
      '',
    ].join('\n'));
  });

  it('prints ANY, an empty Host Regex, NO CUSTOM and NONE for a bare route', () => {
    const text = describeRouteText('bare', new Route('/bare'));
    const value = (property: string): string | undefined =>
      text.split('\n').find((l) => l.startsWith(`| ${property} `))?.split('|')[2].trim();
    expect(value('Host')).toBe('ANY');
    expect(value('Host Regex')).toBe('');
    expect(value('Scheme')).toBe('ANY');
    expect(value('Method')).toBe('ANY');
    expect(value('Requirements')).toBe('NO CUSTOM');
    expect(value('Defaults')).toBe('NONE');
    expect(value('Options')).toBe('NONE');
    expect(text).not.toContain('Condition');
  });
});

describe('describeRouteCollectionText(routes, showControllers)', () => {
  it('adds a Controller column with showControllers, empty for a route without controller', () => {
    const text = describeRouteCollectionText([['secure', secureRoute()], ['bare', new Route('/bare')]], true);
    expect(text.split('\n')).toEqual([
      ' -------- ---------- -------- ------------------- ----------- ------------ ',
      '  Name     Method     Scheme   Host                Path        Controller  ',
      ' -------- ---------- -------- ------------------- ----------- ------------ ',
      '  secure   GET|POST   https    {sub}.example.com   /s/{page}   showPage()  ',
      '  bare     ANY        ANY      ANY                 /bare                   ',
      ' -------- ---------- -------- ------------------- ----------- ------------ ',
      '',
    ]);
  });
});

describe('phpJsonEncode(value)', () => {
  it('escapes slashes and non-ASCII characters as PHP json_encode does', () => {
    expect(phpJsonEncode('/café')).toBe('"\\/caf\\u00e9"');
  });

  it('encodes empty arrays and plain objects as [] and functions as {}', () => {
    expect(phpJsonEncode({ a: [], b: {}, c: () => 1 })).toBe('{\n    "a": [],\n    "b": [],\n    "c": {}\n}');
  });

  it('keeps the order of a Map, integer-like keys included', () => {
    expect(phpJsonEncode(new Map([['b', 1], ['10', 2]]))).toBe('{\n    "b": 1,\n    "10": 2\n}');
  });
});

describe('describeRouteJson(route) and describeRouteCollectionJson(routes)', () => {
  it('gives JsonDescriptor::getRouteData() fields, requirements unsorted, NO CUSTOM when none', () => {
    const data = JSON.parse(describeRouteJson(secureRoute())) as Record<string, unknown>;
    expect(data).toEqual({
      path: '/s/{page}',
      pathRegex: '/^\\/s(?:\\/([^/]+))?$/su',
      host: '{sub}.example.com',
      hostRegex: '/^(api|www)\\.example\\.com$/isu',
      scheme: 'https',
      method: 'GET|POST',
      class: 'Route',
      defaults: { _controller: 'showPage', page: '1', _format: null },
      requirements: { sub: 'api|www' },
      options: { utf8: true, list: ['a', 'b'], nested: { k: "it's" } },
      condition: 'isAjax',
    });
    expect(JSON.parse(describeRouteJson(new Route('/x'))).requirements).toBe('NO CUSTOM');
  });

  it('keys the collection by route name in matching order and ends with a line break', () => {
    const json = describeRouteCollectionJson([['b', new Route('/b')], ['a', new Route('/a')]]);
    expect(Object.keys(JSON.parse(json) as object)).toEqual(['b', 'a']);
    expect(json.endsWith('}\n')).toBe(true);
    expect(describeRouteCollectionJson([])).toBe('[]\n');
  });
});
