/**
 * The toolbar and the pages in a real browser (Chromium through playwright-core): the loader
 * fetches the fragment, fetch()/XMLHttpRequest calls made by the page are listed with links to
 * their profiles, and axe finds no serious accessibility violation on the pages. Skipped, with
 * the reason printed, when no Chromium is installed.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser } from 'playwright-core';
import request from 'supertest';
import type { Kernel } from '../../src/kernel/createKernel';
import { listen, type Listening } from '../helpers/http';
import { launchChromium } from '../helpers/browser';
import { describeWith } from '../helpers/requirements';
import { bareKernel, PANELS, tokenOf } from './kernel';
import { scaled } from '../helpers/timeScale';

const describeWithBrowser = describeWith('chromium');


describeWithBrowser('the toolbar in a browser', () => {
  let browser: Browser;
  let kernel: Kernel;
  let server: Listening;

  beforeAll(async () => {
    kernel = bareKernel();
    server = await listen(kernel);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await kernel?.close();
  });

  test('loads the fragment and lists the page\'s fetch and XHR calls with links to their profiles', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const response = await page.goto(`http://${server.host}:${server.port}/t/ajax`);
    const token = await response?.headerValue('x-debug-token');
    await page.waitForSelector(`#sfwdt${token}`);
    await page.waitForSelector('body[data-done="1"]');
    await page.waitForFunction("document.querySelectorAll('[data-ek-ajax-rows] tr a').length === 2");

    expect(await page.textContent('.ek-block-request .ek-value')).toBe('200 @ t_ajax');
    expect(await page.isVisible('[data-ek-ajax]')).toBe(true);
    expect(await page.textContent('[data-ek-ajax-count]')).toBe('2');
    const rows = await page.evaluate<Array<{ link: string; cells: string[] }>>(`[...document.querySelectorAll('[data-ek-ajax-rows] tr')].map((tr) => ({
      link: tr.querySelector('a').getAttribute('href'),
      cells: [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent),
    }))`);
    expect(rows.map((r) => r.cells)).toEqual([['GET', '404', '/nope'], ['GET', '200', '/api/books']]);
    for (const r of rows) expect(r.link).toMatch(/^\/_profiler\/[0-9a-f]{6}$/);
    const profiles = await Promise.all(rows.map((r) => kernel.profiler!.storage.read(String(r.link).slice('/_profiler/'.length))));
    expect(profiles.map((p) => p?.url.replace(/^http:\/\/[^/]+/, ''))).toEqual(['/nope', '/api/books']);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the hide button hides the blocks and the choice survives a reload', async () => {
    const page = await browser.newPage();
    await page.goto(`http://${server.host}:${server.port}/`);
    await page.waitForSelector('[data-ek-hide]');
    await page.click('[data-ek-hide]');
    expect(await page.isVisible('.ek-block-request')).toBe(false);
    await page.reload();
    await page.waitForSelector('[data-ek-hide]');
    expect(await page.isVisible('.ek-block-request')).toBe(false);
    await page.click('[data-ek-hide]');
    expect(await page.isVisible('.ek-block-request')).toBe(true);
    await page.close();
  });

  test('axe finds no serious or critical violation on the pages and the toolbar', async () => {
    const base = `http://${server.host}:${server.port}`;
    const ok = tokenOf(await request(kernel).get('/api/books'));
    const failed = tokenOf(await request(kernel).get('/boom'));
    const urls = [
      '/', '/_profiler/empty/search/results?limit=10', `/_profiler/${ok}/compare/${failed}`, '/_profiler/zzzzzz',
      ...PANELS.map((p) => `/_profiler/${failed}?panel=${p}`),
    ];
    const context = await browser.newContext({ bypassCSP: true });
    const found: Array<{ url: string; id: string; nodes: string[] }> = [];
    for (const url of urls) {
      const page = await context.newPage();
      await page.goto(base + url);
      // on the application's own page, only the toolbar is ours to check
      if (url === '/') await page.waitForSelector('.ek-toolbar-bar');
      const results = await (url === '/' ? new AxeBuilder({ page }).include('.ek-wdt') : new AxeBuilder({ page })).analyze();
      for (const v of results.violations) {
        if (v.impact === 'serious' || v.impact === 'critical') found.push({ url, id: v.id, nodes: v.nodes.map((n) => n.html.slice(0, 120)) });
      }
      await page.close();
    }
    await context.close();
    expect(found).toEqual([]);
  }, scaled(120_000));
});
