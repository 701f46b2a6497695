import request from 'supertest';
import { createKernel } from '../../src';
import { createDemoRoutes } from '../../src/demo/routes';

describe('ETag', () => {
  test('like Symfony\'s (the oracle\'s GET /api has none), responses carry no ETag unless asked for', async () => {
    const kernel = createKernel({ routes: createDemoRoutes() });
    const res = await request(kernel).get('/api');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    await kernel.close();
  });

  test('kernel.set(\'etag\', \'weak\') brings Express\'s weak ETags and 304s back', async () => {
    const kernel = createKernel({ routes: createDemoRoutes() });
    kernel.set('etag', 'weak');
    const first = await request(kernel).get('/api');
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await request(kernel).get('/api').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    await kernel.close();
  });
});
