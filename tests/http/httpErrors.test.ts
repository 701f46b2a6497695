import { HttpError, MethodNotAllowedHttpError, NotFoundHttpError } from '../../src/http/errors';
import { MethodNotAllowedError } from '../../src/routing/errors';

describe('HttpError headers', () => {
  test('are a frozen copy: changing the record given afterwards changes nothing', () => {
    const given: Record<string, string> = { 'WWW-Authenticate': 'Basic realm="app"' };
    const error = new HttpError('ERR_HTTP_UNAUTHORIZED', 'Full authentication is required.', { headers: given });
    given['WWW-Authenticate'] = 'Bearer';
    given.Extra = 'x';
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="app"' });
    expect(Object.isFrozen(error.headers)).toBe(true);
  });

  test('are an empty frozen record when none are given', () => {
    const error = new NotFoundHttpError('No route found for "GET http://localhost/nope"');
    expect(error.headers).toEqual({});
    expect(Object.isFrozen(error.headers)).toBe(true);
  });
});

describe('MethodNotAllowedHttpError', () => {
  test('sends Allow in upper case, in the given order, and keeps extra headers beside it', () => {
    const plain = new MethodNotAllowedHttpError(['get', 'head'], 'm');
    expect(plain.headers).toEqual({ Allow: 'GET, HEAD' });
    const extra = new MethodNotAllowedHttpError(['PUT'], 'm', { headers: { 'Cache-Control': 'no-store' } });
    expect(extra.headers).toEqual({ 'Cache-Control': 'no-store', Allow: 'PUT' });
  });

  test('keeps its own list: the caller changing its array afterwards changes neither error', () => {
    const methods = ['GET', 'POST'];
    const cause = new MethodNotAllowedError('DELETE', methods);
    const error = new MethodNotAllowedHttpError(methods, 'm', { cause });
    methods.push('PATCH');
    methods[0] = 'PUT';
    expect(cause.allowedMethods).toEqual(['GET', 'POST']);
    expect(error.allowedMethods).toEqual(['GET', 'POST']);
    expect(error.headers).toEqual({ Allow: 'GET, POST' });
    expect(Object.isFrozen(error.allowedMethods) && Object.isFrozen(cause.allowedMethods)).toBe(true);
  });

  test('two 405s with the same Allow value share one frozen headers record; others get their own', () => {
    const a = new MethodNotAllowedHttpError(['GET'], 'a');
    const b = new MethodNotAllowedHttpError(['GET'], 'b');
    const c = new MethodNotAllowedHttpError(['GET', 'POST'], 'c');
    expect(a.headers).toBe(b.headers);
    expect(c.headers).not.toBe(a.headers);
    expect(() => { (a.headers as Record<string, string>).Allow = 'POST'; }).toThrow(TypeError);
    expect(b.headers.Allow).toBe('GET');
  });

  test('a frozen method list keeps its headers record; extra headers still get a record of their own', () => {
    const list = Object.freeze(['get', 'head']);
    const a = new MethodNotAllowedHttpError(list, 'a');
    const b = new MethodNotAllowedHttpError(list, 'b');
    expect(a.headers).toBe(b.headers);
    expect(a.headers).toEqual({ Allow: 'GET, HEAD' });
    const withExtra = new MethodNotAllowedHttpError(list, 'c', { headers: { 'Retry-After': '5' } });
    expect(withExtra.headers).toEqual({ 'Retry-After': '5', Allow: 'GET, HEAD' });
    expect(new MethodNotAllowedHttpError(list, 'd').headers).toEqual({ Allow: 'GET, HEAD' });
  });
});
