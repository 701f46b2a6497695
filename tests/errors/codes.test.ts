import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, ErrorCode, formatMessage } from '../../src/errors/codes';
import * as api from '../../src';

const docs = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'ERRORS.md'), 'utf8');
const rows = [...docs.matchAll(/^\| `([A-Z_]+)` \| (\d+|—) \| `(.*)` \|$/gm)].map((m) => ({ code: m[1], status: m[2], template: m[3] }));

describe('the error-code registry', () => {
  test('docs/ERRORS.md lists exactly the registry, in order, with status and template', () => {
    expect(rows.map((r) => r.code)).toEqual(Object.keys(ERROR_CODES));
    for (const r of rows) {
      const entry = ERROR_CODES[r.code as ErrorCode];
      expect(r.status).toBe(entry.status === undefined ? '—' : String(entry.status));
      expect(r.template).toBe(entry.template);
    }
  });

  test('every code carries its layer prefix', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(code).toMatch(/^ERR_(ROUTING|HTTP|API|PROFILER|CONFIG|CLI|FIREWALL|CORS|SESSION|LOCALE|TIMEZONE)_[A-Z_]+$/);
  });

  test('formatMessage fills the template in order', () => {
    expect(formatMessage('ERR_HTTP_METHOD_NOT_ALLOWED', 'POST', 'http://h/p', 'GET, HEAD')).toBe('No route found for "POST http://h/p": Method Not Allowed (Allow: GET, HEAD)');
  });

  test('errors thrown by the public API carry registry codes', () => {
    const e1 = new api.NotFoundHttpError('x');
    const e2 = new api.MethodNotAllowedError('POST', ['GET']);
    expect(Object.keys(ERROR_CODES)).toContain(e1.code);
    expect(Object.keys(ERROR_CODES)).toContain(e2.code);
    expect(api.isHttpError(e1)).toBe(true);
    expect(api.isRoutingError(e2)).toBe(true);
    expect(api.isHttpError(e2)).toBe(false);
  });
});
