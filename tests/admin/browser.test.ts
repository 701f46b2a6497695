/**
 * The back office as a person uses it, in a real browser (Debian's Chromium through
 * playwright-core) on the demo kernel served over HTTP without debug mode (so under the kernel's
 * Content-Security-Policy): login (wrong password, then right), dashboard, create with a
 * validation error then correctly, edit, search, sort, paginate, delete, batch delete, logout (after
 * which Back shows the login page, not the last admin page from the browser's cache).
 * axe-core finds no serious or critical violation on any page; no page needs a script, and none
 * is wider than a 360 px screen. Screenshots of each step go to test-artifacts/admin/.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { listen, type Listening } from '../helpers/http';
import { launchChromium } from '../helpers/browser';
import { describeWith } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';

const SHOTS = path.resolve(__dirname, '../../test-artifacts/admin');

jest.setTimeout(scaled(120_000));

describeWith('chromium')('the back office in a browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let kernel: DemoKernel;
  let server: Listening;
  let base: string;
  let page: Page;
  const problems: string[] = [];
  const violations: Array<{ url: string; id: string; impact: string; nodes: string[] }> = [];

  /** axe on the page (serious and critical violations kept), no script, its width at 360 px, screenshots. */
  const check = async (step: string): Promise<void> => {
    if ((await page.$$('script')).length > 0) problems.push(`${step}: the page has a script`);
    const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
    for (const v of results.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') {
        const nodes = v.nodes.map((n) => n.html.slice(0, 160));
        violations.push({ url: page.url(), id: v.id, impact: v.impact, nodes });
      }
    }
    await page.screenshot({ path: path.join(SHOTS, `${step}.png`), fullPage: true });
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    await page.setViewportSize({ width: 360, height: 740 });
    const narrow = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (narrow > 360) problems.push(`${step}: ${narrow} px wide at 360 px (${wide} at 1280)`);
    await page.screenshot({ path: path.join(SHOTS, `${step}-360.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  const titles = (): Promise<string[]> => page.$$eval('tbody tr', (rows) => rows.map((r) => r.querySelectorAll('td')[2]?.textContent?.trim() ?? ''));

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    kernel = createDemoKernel({ debug: false, environment: 'test' });
    const book = kernel.resources.find((r) => r.shortName === 'Book')!;
    for (let i = 1; i <= 20; i++) await book.processor!.create(book.metadata, { title: `Volume ${String(i).padStart(2, '0')}`, featured: false });
    server = await listen(kernel);
    base = `http://${server.host}:${server.port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(scaled(10_000));
    page.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
    page.on('response', (r) => {
      const expected = r.status() === 422 && r.url().endsWith('/admin/books/new'); // the validation step
      if (r.status() >= 500 || (r.status() >= 400 && !expected && !r.url().endsWith('/favicon.ico'))) {
        problems.push(`${r.url()}: ${r.status()}`);
      }
    });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await kernel?.close();
  });

  test('login: a wrong password shows the error, the right one opens the dashboard', async () => {
    await page.goto(`${base}/admin/books`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.fill('#username', 'admin');
    await page.fill('#password', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toBe('Invalid credentials.');
    expect(await page.inputValue('#username')).toBe('admin');
    await check('01-login-error');
    await page.fill('#password', 'admin');
    await page.click('button[type=submit]');
    expect(new URL(page.url()).pathname).toBe('/admin/books'); // the page first asked for
    await page.click('text=Dashboard');
    expect(await page.textContent('h1')).toBe('Dashboard');
    expect(await page.textContent('.cards')).toContain('23 items');
    await check('02-dashboard');
  });

  test('create: a validation error keeps the values and marks the field, then the book is created', async () => {
    await page.goto(`${base}/admin/books`);
    await check('03-index');
    await page.click('text=New Book');
    await check('04-new');
    await page.fill('#field-isbn', 'not an isbn');
    await page.selectOption('#field-author', { label: 'Dan Simmons (#2)' });
    await page.click('button:has-text("Create")');
    expect(await page.getAttribute('#field-title', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#error-isbn')).toBe('Expected an ISBN-10 or ISBN-13.');
    expect(await page.inputValue('#field-isbn')).toBe('not an isbn');
    expect(await page.inputValue('#field-author')).toBe('2');
    await check('05-new-errors');
    await page.fill('#field-title', 'The Fall of Hyperion');
    await page.fill('#field-isbn', '0-385-24950-6');
    await page.fill('#field-price', '8.5');
    await page.fill('#field-publishedAt', '1990-03-01');
    await page.click('button:has-text("Create")');
    expect(await page.textContent('[role=status]')).toContain('The Fall of Hyperion (#24) was created.');
    await check('06-detail-created');
  });

  test('edit, search, sort and paginate', async () => {
    await page.click('a.button:has-text("Edit")');
    await check('07-edit');
    await page.fill('#field-title', 'The Fall of Hyperion (1990)');
    await page.check('#field-featured');
    await page.click('button:has-text("Save")');
    expect(await page.textContent('[role=status]')).toContain('was saved.');
    expect(await page.textContent('.detail')).toContain('The Fall of Hyperion (1990)');

    await page.goto(`${base}/admin/books`);
    await page.fill('#query', 'hyperion');
    await page.click('button:has-text("Search")');
    expect(await titles()).toEqual(['Hyperion', 'The Fall of Hyperion (1990)']);
    await check('08-search');
    await page.click('th >> text=Title');
    expect(await page.getAttribute('th[aria-sort=ascending]', 'aria-sort')).toBe('ascending');
    await page.click('th >> text=Title');
    expect(await titles()).toEqual(['The Fall of Hyperion (1990)', 'Hyperion']);
    expect(await page.getAttribute('th[aria-sort=descending] a', 'href')).toContain('sort=title');
    await check('09-sort');

    await page.goto(`${base}/admin/books`);
    expect(await titles()).toHaveLength(20);
    await page.click('a[rel=next]');
    expect(await page.textContent('.pagination')).toContain('Page 2 of 2');
    expect(await titles()).toEqual(['Volume 18', 'Volume 19', 'Volume 20', 'The Fall of Hyperion (1990)']);
    await check('10-page-2');
  });

  test('delete after the confirmation page, then a batch delete', async () => {
    await page.goto(`${base}/admin/books/24`);
    await page.click('a.button:has-text("Delete")');
    await check('11-delete-confirm');
    await page.click('button:has-text("Delete")');
    expect(await page.textContent('[role=status]')).toContain('The Fall of Hyperion (1990) (#24) was deleted.');
    await page.goto(`${base}/admin/books?query=volume&sort=title&direction=desc`);
    await page.check('input[aria-label="Select Volume 20 (#23)"]');
    await page.check('input[aria-label="Select Volume 19 (#22)"]');
    await page.click('button:has-text("Delete selected")');
    expect(await page.textContent('.confirm-items')).toContain('Volume 20 (#23)');
    await check('12-batch-confirm');
    await page.click('button:has-text("Delete selected")');
    expect(await page.textContent('[role=status]')).toContain('2 items were deleted: Volume 20 (#23), Volume 19 (#22).');
    // back to the list as it was: its search and sort kept
    expect(new URL(page.url()).search).toBe('?query=volume&sort=title&direction=desc');
    expect(await titles()).not.toContain('Volume 20');
    await check('12-batch-deleted');
  });

  test('logout ends the session, and Back does not show the last admin page from the cache', async () => {
    await page.goto(`${base}/admin/books`);
    expect(await page.textContent('caption')).toBe('21 items'); // the index, seen before the logout
    await page.click('button:has-text("Log out")');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await check('13-logged-out');
    await page.goBack(); // no-store: asked again, the server sends the login page
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.$('caption')).toBeNull();
    await page.goto(`${base}/admin`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });

  test('no page had a serious or critical axe violation, an error, a 5xx or a width over 360 px', () => {
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
