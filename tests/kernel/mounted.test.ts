import express from 'express';
import { createDemoKernel } from '../../src/demo/app';
import { debugMessage, listen, Listening, rawRequest } from '../helpers/http';

describe('a kernel mounted under /app in a host Express app', () => {
  let server: Listening;
  beforeAll(async () => {
    const host = express();
    host.get('/', (_req, res) => { res.send('host home'); });
    host.use('/app', createDemoKernel({ debug: true }));
    host.use((_req, res) => { res.status(404).send('host 404'); });
    server = await listen(host);
  });
  afterAll(() => server.close());

  test('serves its routes below the mount path', async () => {
    const res = await rawRequest(server, { method: 'GET', target: '/app/api' });
    expect(res.status).toBe(200);
    // the API's IRIs carry the mount path
    expect(JSON.parse(res.body)).toMatchObject({ '@id': '/app/api', book: '/app/api/books', author: '/app/api/authors' });
  });

  test('leaves the host app its own paths', async () => {
    const res = await rawRequest(server, { method: 'GET', target: '/' });
    expect(res.body).toBe('host home');
  });

  test('puts the mount path in not-found messages', async () => {
    const res = await rawRequest(server, { method: 'GET', target: '/app/nope?x=1' });
    expect(res.status).toBe(404);
    expect(debugMessage(res.headers)).toBe(`No route found for "GET http://127.0.0.1:${server.port}/app/nope"`);
  });

  test('puts the mount path in method-not-allowed messages', async () => {
    const res = await rawRequest(server, { method: 'DELETE', target: '/app/api/books' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(debugMessage(res.headers)).toBe(`No route found for "DELETE http://127.0.0.1:${server.port}/app/api/books": Method Not Allowed (Allow: GET, POST)`);
  });

  test('puts the mount path in trailing-slash redirects and keeps the raw query', async () => {
    const res = await rawRequest(server, { method: 'GET', target: '/app/hello?a=1&b=%20' });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`http://127.0.0.1:${server.port}/app/hello/?a=1&b=%20`);
  });

  test('links the profile below the mount path, and the link answers', async () => {
    const res = await rawRequest(server, { method: 'GET', target: '/app/nope' });
    const token = String(res.headers['x-debug-token']);
    expect(res.headers['x-debug-token-link']).toBe(`http://127.0.0.1:${server.port}/app/_profiler/${token}`);
    const page = await rawRequest(server, { method: 'GET', target: `/app/_profiler/${token}?panel=exception` });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`No route found for &quot;GET http://127.0.0.1:${server.port}/app/nope&quot;`);
    expect(page.body).toContain('No routes found for &quot;/nope/&quot;.');
  });
});
