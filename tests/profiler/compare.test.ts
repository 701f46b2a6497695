import request from 'supertest';
import { compareProfiles } from '../../src/profiler/compare';
import { bareKernel, storedProfile, tokenOf, useKernel } from './kernel';

const kernel = useKernel(bareKernel);

describe('GET /_profiler/{a}/compare/{b}', () => {
  test('shows both profiles side by side, status and route differences highlighted', async () => {
    const a = tokenOf(await request(kernel()).get('/api/books'));
    const b = tokenOf(await request(kernel()).get('/boom'));
    const res = await request(kernel()).get(`/_profiler/${a}/compare/${b}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1>Compare <a href="/_profiler/${a}">${a}</a> with <a href="/_profiler/${b}">${b}</a></h1>`);
    expect(res.text).toContain('<tr class="differs"><th scope="row">HTTP Status <span class="differs-mark">(differs)</span></th><td>200</td><td>500</td></tr>');
    expect(res.text).toContain('<tr class="differs"><th scope="row">Route <span class="differs-mark">(differs)</span></th><td>book_list</td><td>boom</td></tr>');
    expect(res.text).toContain('<tr class=""><th scope="row">Method</th><td>GET</td><td>GET</td></tr>');
    expect(res.text).toContain('<td>Error: Kaboom</td>');
    expect(res.text).toContain('id="compare-timeline"');
    expect(res.text.match(/<div class="bar a"/g)?.length).toBeGreaterThan(0);
    expect(res.text.match(/<div class="bar b"/g)?.length).toBeGreaterThan(0);
  });

  test('an unknown token on either side is the "Token not found" page', async () => {
    const a = tokenOf(await request(kernel()).get('/api'));
    for (const url of [`/_profiler/zzzzzz/compare/${a}`, `/_profiler/${a}/compare/zzzzzz`]) {
      const res = await request(kernel()).get(url);
      expect(res.status).toBe(200);
      expect(res.text).toContain('Token &quot;zzzzzz&quot; not found.');
    }
  });

  test('the search results link each profile to a comparison with the one before it', async () => {
    const k = bareKernel();
    const first = tokenOf(await request(k).get('/api'));
    const second = tokenOf(await request(k).get('/nope'));
    const html = (await request(k).get('/_profiler/empty/search/results?limit=10')).text;
    expect(html).toContain(`<a href="/_profiler/${second}/compare/${first}">with ${first}</a>`);
    await k.close();
  });
});

describe('compareProfiles(a, b)', () => {
  test('matches layers by name and gives b − a per layer', async () => {
    const a = await storedProfile(kernel(), await request(kernel()).get('/api'));
    const b = await storedProfile(kernel(), await request(kernel()).get('/nope'));
    a.collectors.time = { duration: 10, events: [{ name: 'router', start: 1, end: 4 }, { name: 'cors', start: 0, end: 1 }] };
    b.collectors.time = { duration: 20, events: [{ name: 'router', start: 1, end: 9 }, { name: 'session', start: 0, end: 1 }] };
    const c = compareProfiles(a, b);
    expect(c.events).toEqual([
      { name: 'router', a: 3, b: 8, delta: 5 },
      { name: 'cors', a: 1, b: undefined, delta: undefined },
      { name: 'session', a: undefined, b: 1, delta: undefined },
    ]);
    // the same scale on both sides: a's 3 ms router bar is 15% of b's 20 ms
    expect(c.barsA[0]).toMatchObject({ name: 'router', left: 5, width: 15 });
    expect(c.barsB[0]).toMatchObject({ name: 'router', left: 5, width: 40 });
    expect(c.fields.find((f) => f.label === 'HTTP Status')).toEqual({ label: 'HTTP Status', a: '200', b: '404', differs: true });
  });
});
