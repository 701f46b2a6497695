import { Route } from '../../src/routing/Route';
import { InvalidRouteError, isRoutingError } from '../../src/routing/errors';

describe('new Route(path, options)', () => {
  describe('path normalisation', () => {
    test('adds a leading slash when it is missing', () => {
      expect(new Route('foo/bar').path).toBe('/foo/bar');
    });

    test('collapses repeated leading slashes into one', () => {
      expect(new Route('//foo').path).toBe('/foo');
      expect(new Route('///foo//').path).toBe('/foo//');
    });

    test('trims surrounding whitespace', () => {
      expect(new Route('  /foo  ').path).toBe('/foo');
    });

    test('turns an empty or all-slash path into /', () => {
      expect(new Route('').path).toBe('/');
      expect(new Route('///').path).toBe('/');
    });

    test('keeps trailing slashes and inner double slashes', () => {
      expect(new Route('/a//b/').path).toBe('/a//b/');
    });
  });

  describe('inline syntax', () => {
    test('{id<\\d+>} becomes {id} with the requirement \\d+', () => {
      const r = new Route('/books/{id<\\d+>}');
      expect(r.path).toBe('/books/{id}');
      expect(r.requirements).toEqual({ id: '\\d+' });
    });

    test('{page?1} becomes {page} with the default "1"', () => {
      const r = new Route('/list/{page?1}');
      expect(r.path).toBe('/list/{page}');
      expect(r.defaults).toEqual({ page: '1' });
    });

    test('{page?} has a null default', () => {
      const r = new Route('/list/{page?}');
      expect(r.defaults).toEqual({ page: null });
      expect(r.hasDefault('page')).toBe(true);
    });

    test('{page<\\d+>?1} sets both', () => {
      const r = new Route('/list/{page<\\d+>?1}');
      expect(r.path).toBe('/list/{page}');
      expect(r.requirements).toEqual({ page: '\\d+' });
      expect(r.defaults).toEqual({ page: '1' });
    });

    test('{!page?1} keeps the ! (important variable) in the path', () => {
      const r = new Route('/list/{!page?1}');
      expect(r.path).toBe('/list/{!page}');
      expect(r.defaults).toEqual({ page: '1' });
    });

    test('a requirement may contain < and >: {x<a(?<=a)>}', () => {
      expect(new Route('/{x<(?<=a)b>}').requirements).toEqual({ x: '(?<=a)b' });
    });

    test('options.requirements and options.defaults override the inline ones', () => {
      const r = new Route('/list/{page<\\d+>?1}', { requirements: { page: '[a-z]+' }, defaults: { page: 'a' } });
      expect(r.requirements).toEqual({ page: '[a-z]+' });
      expect(r.defaults).toEqual({ page: 'a' });
    });
  });

  describe('requirement sanitising', () => {
    test('strips a leading ^ and a trailing $', () => {
      expect(new Route('/{id}', { requirements: { id: '^\\d+$' } }).requirements).toEqual({ id: '\\d+' });
      expect(new Route('/{id<^\\d+$>}').requirements).toEqual({ id: '\\d+' });
    });

    test('strips \\A and \\z', () => {
      expect(new Route('/{id}', { requirements: { id: '\\A\\d+\\z' } }).requirements).toEqual({ id: '\\d+' });
    });

    test.each(['', '^', '$', '^$', '\\A\\z'])('rejects the requirement %j as empty', (req) => {
      expect(() => new Route('/{id}', { requirements: { id: req } })).toThrow(
        new InvalidRouteError('id', 'Routing requirement for "id" cannot be empty.'),
      );
    });

    test('the empty-requirement error message is exact', () => {
      expect(() => new Route('/{id<^$>}')).toThrow('Route "id" is invalid: Routing requirement for "id" cannot be empty.');
    });

    test('the error is a routing error with code ERR_ROUTING_INVALID_ROUTE', () => {
      let caught: unknown;
      try {
        new Route('/{id}', { requirements: { id: '' } });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InvalidRouteError);
      expect(isRoutingError(caught)).toBe(true);
      expect((caught as InvalidRouteError).code).toBe('ERR_ROUTING_INVALID_ROUTE');
    });
  });

  describe('other options', () => {
    test('uppercases methods and lowercases schemes', () => {
      const r = new Route('/', { methods: ['get', 'Post'], schemes: ['HTTPS'] });
      expect(r.methods).toEqual(['GET', 'POST']);
      expect(r.schemes).toEqual(['https']);
    });

    test('stores defaults as strings, and null/undefined as null', () => {
      const r = new Route('/', { defaults: { a: 1, b: 'x', c: null, d: undefined } });
      expect(r.defaults).toEqual({ a: '1', b: 'x', c: null, d: null });
    });

    test('has no methods, schemes, host or condition by default', () => {
      const r = new Route('/');
      expect(r.methods).toEqual([]);
      expect(r.schemes).toEqual([]);
      expect(r.host).toBe('');
      expect(r.condition).toBeUndefined();
    });

    test('does not compile on construction: a bad variable name only throws at compile()', () => {
      const r = new Route('/{1x}');
      expect(() => r.compile()).toThrow(InvalidRouteError);
    });
  });
});

describe('route.compile()', () => {
  test('compiles once and returns the same object', () => {
    const r = new Route('/a/{b}');
    expect(r.compile()).toBe(r.compile());
  });
});

describe('route.withRequirements(requirements)', () => {
  test('returns a copy with the new requirements and the same path, defaults and host', () => {
    const r = new Route('/a/{b?x}', { requirements: { b: '\\d+' }, host: 'h.example.com' });
    const copy = r.withRequirements({ b: '[a-z]+' });
    expect(copy).not.toBe(r);
    expect(copy.path).toBe('/a/{b}');
    expect(copy.requirements).toEqual({ b: '[a-z]+' });
    expect(copy.defaults).toEqual({ b: 'x' });
    expect(copy.host).toBe('h.example.com');
  });
});
