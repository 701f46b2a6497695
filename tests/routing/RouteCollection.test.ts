/** RouteCollection's API as Symfony 5.4's RouteCollection (expectations checked with php). */
import { Alias, Route, RouteCircularReferenceError, RouteCollection, RoutingArgumentError, UrlMatcher } from '../../src/routing';

const names = (c: RouteCollection) => c.all().map(([n]) => n);

describe('add(name, route, priority)', () => {
  test('orders by priority, highest first, then by declaration; re-adding moves a name to the end', () => {
    const c = new RouteCollection().add('a', new Route('/a')).add('b', new Route('/b'), 10).add('c', new Route('/c'));
    expect(names(c)).toEqual(['b', 'a', 'c']);
    c.add('a', new Route('/a2'));
    expect(names(c)).toEqual(['b', 'c', 'a']);
    expect(c.getPriority('b')).toBe(10);
    expect(c.count()).toBe(3);
  });

  test('a higher priority route matches first', () => {
    const c = new RouteCollection().add('any', new Route('/{x}')).add('exact', new Route('/{y}', { requirements: { y: 'a' } }), 1);
    expect(new UrlMatcher(c).match('/a', { method: 'GET', host: 'h', scheme: 'http' }).route).toBe('exact');
  });
});

describe('bulk changes', () => {
  const base = () => new RouteCollection().add('r', new Route('/')).add('b', new Route('/b', { defaults: { d: '0' } }), 5);

  test('addPrefix(prefix, defaults, requirements): trims slashes, `/` becomes `/api/`, merges defaults and requirements', () => {
    const c = base().addPrefix('/api/', { d: 1 }, { d: '\\d' });
    expect(c.all().map(([n, r]) => [n, r.path, r.defaults, r.requirements])).toEqual([
      ['b', '/api/b', { d: '1' }, { d: '\\d' }],
      ['r', '/api/', { d: '1' }, { d: '\\d' }],
    ]);
    expect(c.getPriority('b')).toBe(5);
    expect(base().addPrefix(' / ').get('b')?.path).toBe('/b');
  });

  test('addNamePrefix renames routes, aliases and their targets, and _canonical_route', () => {
    const c = new RouteCollection().add('about.en', new Route('/about', { defaults: { _canonical_route: 'about', _locale: 'en' } }));
    c.addAlias('old', 'about.en');
    c.addNamePrefix('blog_');
    expect(names(c)).toEqual(['blog_about.en']);
    expect(c.get('blog_about.en')?.defaults._canonical_route).toBe('blog_about');
    expect(c.getAlias('blog_old')?.getId()).toBe('blog_about.en');
  });

  test('setHost, setSchemes, setMethods, setCondition, addDefaults, addRequirements, addOptions change every route', () => {
    const c = base()
      .setHost('{sub}.example.com', { sub: 'www' }, { sub: '[a-z]+' })
      .setSchemes('HTTPS').setMethods(['get', 'post'])
      .setCondition((ctx) => ctx.method !== 'PUT')
      .addDefaults({ x: 'y' }).addRequirements({ x: 'y|z' }).addOptions({ utf8: true, mine: 1 });
    for (const [, r] of c.all()) {
      expect(r.host).toBe('{sub}.example.com');
      expect(r.defaults).toMatchObject({ sub: 'www', x: 'y' });
      expect(r.requirements).toEqual({ sub: '[a-z]+', x: 'y|z' });
      expect(r.schemes).toEqual(['https']);
      expect(r.methods).toEqual(['GET', 'POST']);
      expect(r.condition?.({ method: 'PUT', host: '', scheme: '', pathInfo: '/' })).toBe(false);
      expect(r.utf8).toBe(true);
      expect(r.options.mine).toBe(1);
    }
    expect(names(c)).toEqual(['b', 'r']);
  });

  test('remove(name | names) drops routes and the aliases that pointed to them', () => {
    const c = base().add('c', new Route('/c'));
    c.addAlias('to_b', 'b');
    c.addAlias('to_c', 'c');
    expect(c.remove(['b', 'nope'])).toBe(true);
    expect(c.remove('nope')).toBe(false);
    expect(names(c)).toEqual(['r', 'c']);
    expect(c.getAlias('to_b')).toBeUndefined();
    expect(c.getAlias('to_c')).toBeInstanceOf(Alias);
  });
});

describe('addAlias(name, target) / getAlias(name) / get(name)', () => {
  test('get follows alias chains; an alias to a missing route gives undefined', () => {
    const c = new RouteCollection().add('t', new Route('/t'));
    c.addAlias('a1', 't');
    c.addAlias('a2', 'a1');
    c.addAlias('m', 'missing');
    expect(c.get('a2')?.path).toBe('/t');
    expect(c.get('m')).toBeUndefined();
    expect(c.getAliases().map(([n]) => n)).toEqual(['a1', 'a2', 'm']);
    expect(names(c)).toEqual(['t']);
  });

  test('an alias replaces a route of its name, and a route an alias', () => {
    const c = new RouteCollection().add('x', new Route('/x')).add('t', new Route('/t'));
    c.addAlias('x', 't');
    expect(names(c)).toEqual(['t']);
    c.add('x', new Route('/x'));
    expect(c.getAlias('x')).toBeUndefined();
  });

  test('a loop throws Symfony\'s circular reference message; an alias to itself is refused', () => {
    const c = new RouteCollection();
    c.addAlias('x', 'y');
    c.addAlias('y', 'x');
    expect(() => c.get('x')).toThrow(RouteCircularReferenceError);
    expect(() => c.get('x')).toThrow('Circular reference detected for route "x", path: "x -> y -> x".');
    expect(() => c.addAlias('z', 'z')).toThrow(new RoutingArgumentError('Route alias "z" can not reference itself.'));
  });

  test('get reports each deprecated alias it goes through, with %alias_id% replaced', () => {
    const c = new RouteCollection().add('t', new Route('/t'));
    c.addAlias('old', 't').setDeprecated('acme/blog', '1.2', 'The "%alias_id%" alias is old.');
    c.addAlias('older', 'old').setDeprecated('acme/blog', '1.0', '');
    const seen: unknown[] = [];
    c.get('older', (d) => seen.push(d));
    expect(seen).toEqual([
      { package: 'acme/blog', version: '1.0', message: 'The "older" route alias is deprecated. You should stop using it, as it will be removed in the future.' },
      { package: 'acme/blog', version: '1.2', message: 'The "old" alias is old.' },
    ]);
  });

  test('addCollection brings the other collection\'s aliases', () => {
    const other = new RouteCollection().add('t', new Route('/t'));
    other.addAlias('a', 't');
    const c = new RouteCollection().addCollection(other, '/p');
    expect(c.get('a')?.path).toBe('/p/t');
  });
});

describe('Alias.setDeprecated(package, version, message)', () => {
  test('refuses a template without %alias_id% or with a line break, as Symfony', () => {
    expect(() => new Alias('t').setDeprecated('p', '1', 'no placeholder'))
      .toThrow('The deprecation template must contain the "%alias_id%" placeholder.');
    expect(() => new Alias('t').setDeprecated('p', '1', 'a\n%alias_id%')).toThrow('Invalid characters found in deprecation template.');
    expect(new Alias('t').isDeprecated()).toBe(false);
    expect(new Alias('t').withId('u').getId()).toBe('u');
  });
});
