import express from 'express';
import request from 'supertest';
import { presetHeaders } from '../../src/http/presetHeaders';

describe('presetHeaders(operations)', () => {
  const write = presetHeaders([['X-Frame-Options', 'DENY'], ['X-Powered-By', undefined], ['Link', ['</a>', '</b>']]]);

  test('sets and removes as setHeader / removeHeader would; one response\'s appendHeader leaves the next alone', async () => {
    const app = express();
    app.get('/', (req, res) => {
      write(res);
      if (req.query.more !== undefined) res.appendHeader('Link', '</c>');
      res.send('ok');
    });
    const first = await request(app).get('/?more');
    expect(first.headers['x-frame-options']).toBe('DENY');
    expect(first.headers['x-powered-by']).toBeUndefined();
    expect(first.headers.link).toBe('</a>, </b>, </c>');
    expect((await request(app).get('/')).headers.link).toBe('</a>, </b>');
  });

  test('checks names and values once, when made', () => {
    expect(() => presetHeaders([['Bad Name', 'x']])).toThrow(/Header name must be a valid HTTP token/);
    expect(() => presetHeaders([['X-Ok', 'line\nbreak']])).toThrow(/Invalid character in header content/);
  });

  test('on a response whose headers were sent, throws as setHeader does', async () => {
    const app = express();
    let thrown: unknown;
    app.get('/', (_req, res) => {
      res.send('ok');
      try { write(res); } catch (e) { thrown = e; }
    });
    await request(app).get('/');
    expect((thrown as { code?: string }).code).toBe('ERR_HTTP_HEADERS_SENT');
  });
});
