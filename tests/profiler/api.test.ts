import request from 'supertest';
import { tokenOf, useKernel } from './kernel';

const kernel = useKernel();
const sent: string[] = [];

beforeAll(async () => {
  for (const send of [() => request(kernel()).get('/api'), () => request(kernel()).get('/nope'), () => request(kernel()).delete('/api/books'), () => request(kernel()).get('/boom')]) {
    sent.push(tokenOf(await send()));
    // a profile's time is its request's start in whole ms (ties go by token): start apart
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

describe('GET /_profiler/api/profiles', () => {
  test('lists summaries newest first, with links to the API and the page', async () => {
    const res = await request(kernel()).get('/_profiler/api/profiles');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const { profiles } = res.body as { profiles: Array<Record<string, unknown>> };
    expect(profiles.map((p) => p.token)).toEqual([...sent].reverse());
    expect(profiles[0]).toEqual({
      token: sent[3], ip: '127.0.0.1', method: 'GET', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/boom$/),
      time: expect.any(Number), statusCode: 500, route: 'boom',
      links: { self: `/_profiler/api/profiles/${sent[3]}`, html: `/_profiler/${sent[3]}` },
    });
  });

  test.each([
    ['method=DELETE', [2]],
    ['method=delete', [2]],
    ['status=404', [1]],
    ['url=%2Fapi', [2, 0]],
    ['ip=127.0.0.1&limit=2', [3, 2]],
    ['start=2000-01-01T00:00&end=2999-01-01', [3, 2, 1, 0]],
    ['end=2000-01-01', []],
  ])('filters: ?%s', async (qs, expected) => {
    const { profiles } = (await request(kernel()).get(`/_profiler/api/profiles?${qs}`)).body as { profiles: Array<{ token: string }> };
    expect(profiles.map((p) => p.token)).toEqual(expected.map((i) => sent[i]));
  });

  test.each([
    ['status=abc', 'Invalid query parameter "status": expected a status code from 100 to 599 (got "abc").'],
    ['limit=0', 'Invalid query parameter "limit": expected a whole number from 1 to 1000 (got "0").'],
    ['start=yesterday', 'Invalid query parameter "start": expected a date such as 2024-05-01 or 2024-05-01T10:00 (got "yesterday").'],
    ['method=G%20T', 'Invalid query parameter "method": expected an HTTP method such as GET (got "G T").'],
  ])('a filter that does not parse is a 400 problem: ?%s', async (qs, detail) => {
    const res = await request(kernel()).get(`/_profiler/api/profiles?${qs}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
  });
});

describe('GET /_profiler/api/profiles/{token}', () => {
  test('is the whole profile, every collector\'s data included', async () => {
    const res = await request(kernel()).get(`/_profiler/api/profiles/${sent[1]}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.token).toBe(sent[1]);
    expect(res.body.statusCode).toBe(404);
    expect(Object.keys(res.body.collectors)).toEqual(['request', 'time', 'memory', 'exception', 'logger', 'router', 'security', 'session', 'cors', 'locale', 'timezone', 'config']);
    expect(res.body.collectors.exception.exceptions[0].class).toBe('NotFoundHttpError');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(await kernel().profiler?.storage.read(sent[1]))));
  });

  test('latest is the newest profile', async () => {
    expect((await request(kernel()).get('/_profiler/api/profiles/latest')).body.token).toBe(sent[3]);
  });

  test('an unknown token is a 404 problem', async () => {
    const res = await request(kernel()).get('/_profiler/api/profiles/zzzzzz');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Token "zzzzzz" not found.' });
  });

  test('API calls are not profiled', async () => {
    expect((await request(kernel()).get('/_profiler/api/profiles')).headers['x-debug-token']).toBeUndefined();
  });
});
