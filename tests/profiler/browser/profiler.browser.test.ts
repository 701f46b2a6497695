/**
 * The demo kernel's profiler as a person uses it, in a real browser (Debian's Chromium through
 * playwright-core; never `npx playwright install`): the toolbar on an HTML page and on the 404
 * debug page, its link to the profile, every panel reached by clicking the sidebar, the search
 * form, and axe-core on the pages. Screenshots of each step go to test-artifacts/screenshots/.
 *
 * Chromium is required: without it the tests FAIL (CI installs it via .ci/run), they do not skip.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { listen, type Listening } from '../../helpers/http';
import { launchChromium } from '../../helpers/browser';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

const SHOTS = path.resolve(__dirname, '../../../test-artifacts/screenshots');

jest.setTimeout(scaled(90_000));

describeWith('chromium')('the profiler in a browser (demo kernel)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let kernel: DemoKernel;
  let server: Listening;
  let base: string;
  /** The profile of `GET /nope` (404), found by clicking the toolbar on the debug page. */
  let notFoundToken = '';
  let homeToken = '';
  const shots: string[] = [];
  const pageErrors: string[] = [];

  const shoot = async (page: Page, step: string): Promise<void> => {
    const file = path.join(SHOTS, `${step}.png`);
    await page.screenshot({ path: file, fullPage: true });
    shots.push(file);
  };

  const newPage = async (): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
    return page;
  };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    kernel = createDemoKernel({ debug: true });
    server = await listen(kernel);
    base = `http://${server.host}:${server.port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await kernel?.close();
    if (shots.length) console.log(`screenshots:\n${shots.map((s) => `  ${s}`).join('\n')}`);
  });

  test('the toolbar shows on / and on the 404 debug page, and its profile link opens the exception panel', async () => {
    const page = await newPage();
    const home = await page.goto(`${base}/`);
    expect(home?.status()).toBe(200);
    homeToken = (await home?.headerValue('x-debug-token')) ?? '';
    expect(homeToken).toMatch(/^[0-9a-f]{6}$/);
    const homeBar = page.getByRole('region', { name: 'Debug toolbar' });
    await homeBar.waitFor();
    await expect(homeBar.getByRole('link', { name: homeToken, exact: true }).isVisible()).resolves.toBe(true);
    await shoot(page, '01-home-toolbar');

    const missing = await page.goto(`${base}/nope`);
    expect(missing?.status()).toBe(404);
    const token = (await missing?.headerValue('x-debug-token')) ?? '';
    expect(token).toMatch(/^[0-9a-f]{6}$/);
    expect(token).not.toBe(homeToken);
    const bar = page.getByRole('region', { name: 'Debug toolbar' });
    await bar.waitFor();
    await shoot(page, '02-404-debug-page-toolbar');

    const profileLink = bar.getByRole('link', { name: token, exact: true });
    expect(await profileLink.getAttribute('href')).toMatch(new RegExp(`/_profiler/${token}$`));
    await Promise.all([page.waitForURL(`**/_profiler/${token}`), profileLink.click()]);
    notFoundToken = token;

    const panel = page.locator('#panel-exception');
    await expect(page.getByRole('heading', { level: 2, name: 'Exceptions' }).isVisible()).resolves.toBe(true);
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain(`No route found for "GET ${base}/nope"`);
    expect(text).toContain('No routes found for "/nope/".');
    expect(await page.getByRole('heading', { level: 3 }).first().textContent()).toBe(`No route found for "GET ${base}/nope"`);
    expect(await page.locator('#menu-profiler li.selected').textContent()).toMatch(/Exception/);
    await shoot(page, '03-profile-exception-panel');
    await page.close();
  });

  test('every panel of the sidebar opens by clicking it, with its heading and no error', async () => {
    expect(notFoundToken).not.toBe('');
    const page = await newPage();
    await page.goto(`${base}/_profiler/${notFoundToken}`);
    const items = await page.locator('#menu-profiler li').evaluateAll((lis) =>
      lis.map((li) => ({ name: li.classList[0], label: li.querySelector('.label')?.textContent ?? '' })));
    expect(items.map((i) => i.name)).toEqual(expect.arrayContaining(['request', 'router', 'time', 'exception']));

    for (const { name, label } of items) {
      const link = page.locator('#menu-profiler').getByRole('link').filter({ has: page.locator('.label', { hasText: label }) }).first();
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${base}/_profiler/${notFoundToken}?panel=${name}`),
        link.click(),
      ]);
      await page.waitForLoadState('load');
      expect({ name, status: response.status() }).toEqual({ name, status: 200 });
      const heading = page.locator('main section h2').first();
      expect({ name, heading: (await heading.isVisible()) && ((await heading.textContent()) ?? '').trim() !== '' }).toEqual({ name, heading: true });
      expect(await page.locator('#menu-profiler [aria-current="page"] .label').textContent()).toBe(label);
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).not.toMatch(/Template render error|undefined is not|\[object Object\]/);
      if (name === 'request') {
        const request = page.locator('#panel-request');
        expect(await request.getByRole('row', { name: /^Method/ }).textContent()).toContain('GET');
        expect(await request.getByRole('row', { name: /^URL/ }).textContent()).toContain(`${base}/nope`);
      }
      if (name === 'router') expect(main).toContain('Route Matching Logs');
      if (name === 'time') expect(await page.getByRole('heading', { level: 2, name: 'Performance' }).isVisible()).toBe(true);
      if (['request', 'router', 'time'].includes(name)) await shoot(page, `04-panel-${name}`);
    }

    // a localized path with a locale outside the requirement: the routing panel says why it missed
    const about = await page.goto(`${base}/xx/about`);
    const aboutToken = (await about?.headerValue('x-debug-token')) ?? '';
    expect(aboutToken).toMatch(/^[0-9a-f]{6}$/);
    await page.goto(`${base}/_profiler/${aboutToken}`);
    await page.locator('#menu-profiler').getByRole('link', { name: /Routing/ }).click();
    await page.waitForURL(`**/_profiler/${aboutToken}?panel=router`);
    const logs = page.locator('#route-matching-logs');
    expect(await logs.textContent()).toContain('Path almost matches, but Requirement for "_locale" does not match (en|fr|de)');
    await shoot(page, '05-panel-router-xx-about');
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  test('the search form finds the 404 request by method and URL substring', async () => {
    expect(notFoundToken).not.toBe('');
    const page = await newPage();
    await page.goto(`${base}/_profiler/empty/search/results?limit=10`);
    const form = page.getByRole('search', { name: 'Search profiles' });
    await form.getByLabel('Method').selectOption('GET');
    await form.getByLabel('URL contains').fill('nope');
    await shoot(page, '06-search-form-filled');
    await Promise.all([page.waitForURL('**/search/results?**'), form.getByRole('button', { name: 'Search' }).click()]);
    await page.waitForLoadState('load');

    expect(page.url()).toContain('url=nope');
    const table = page.locator('#search-results');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const tokens = rows.map((r) => r[5]);
    expect(tokens).toContain(notFoundToken);
    expect(tokens).not.toContain(homeToken);
    for (const r of rows) {
      expect(r[2]).toBe('GET');
      expect(r[3]).toContain('nope');
    }
    expect(rows.find((r) => r[5] === notFoundToken)?.[0]).toBe('404');
    expect(await page.getByRole('link', { name: notFoundToken, exact: true }).isVisible()).toBe(true);
    await shoot(page, '07-search-results');
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  test('axe finds no serious or critical violation on the search page and on every panel', async () => {
    expect(notFoundToken).not.toBe('');
    const probe = await newPage();
    await probe.goto(`${base}/_profiler/${notFoundToken}`);
    const panels = await probe.locator('#menu-profiler li').evaluateAll((lis) => lis.map((li) => li.classList[0]));
    await probe.close();
    const urls = ['/_profiler/empty/search/results?limit=10', '/_profiler/empty/search/results?method=GET&url=nope&limit=10',
      ...panels.map((p) => `/_profiler/${notFoundToken}?panel=${p}`)];
    const found: Array<{ url: string; id: string; impact: string; help: string; nodes: string[] }> = [];
    const page = await newPage();
    for (const url of urls) {
      await page.goto(base + url);
      // only violations are needed: axe skips building the passes' node details
      const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
      for (const v of results.violations) {
        if (v.impact === 'serious' || v.impact === 'critical') {
          found.push({
            url, id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.html.slice(0, 160)),
          });
        }
      }
    }
    await page.close();
    if (found.length) console.log(`axe violations:\n${JSON.stringify(found, null, 2)}`);
    expect(found).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, scaled(180_000)); // ~14 pages, 1-3 s of axe each on a loaded machine
});
