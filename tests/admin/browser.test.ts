/**
 * The back office as a person uses it, in a real browser (Debian's Chromium through
 * playwright-core) on the demo kernel served over HTTP without debug mode (so under the kernel's
 * Content-Security-Policy), in English then in French (the browser's `Accept-Language`):
 * login (wrong password, then right), dashboard, the index (filters closed until used, empty
 * filter fields kept out of the URL, fewer Tab presses to the first row, a 234-character title cut
 * without pushing the other columns out of view), create with a validation error then correctly,
 * edit, the item's history and the audit log, search, sort, paginate, the inline switch, select-all,
 * a custom action, delete, batch delete, the export, error pages (400, 403, 404, 409) inside the
 * layout, logout (after which Back shows the login page, not the last admin page from the cache).
 * On every page, at 1280×800 and 390×844, in light and dark schemes: axe-core finds no violation
 * of any impact, no page needs a script or is wider than the screen, every link, button, box and
 * select is a 24 px target at least (WCAG 2.2, 2.5.8), and a signed-in user's page is
 * `Cache-Control: no-store`. In debug mode, the profiler's toolbar covers none of the page at
 * either size and sees the back office's form posts as same-origin (no CORS problem).
 * Screenshots of each step go to test-artifacts/admin/ (`readme-*.png` are docs/images'
 * screenshots).
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { listen, type Listening } from '../helpers/http';
import { launchChromium } from '../helpers/browser';
import { describeWith } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';

const SHOTS = path.resolve(__dirname, '../../test-artifacts/admin');

/** The two screens of the issue: a laptop's and a phone's. */
const SCREENS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }] as const;

/** A 234-character title (the issue's): cut in the list, whole on its page. */
const LONG = 'An Extremely Long Title '.repeat(10).slice(0, 234);

/**
 * The interactive elements of the page smaller than 24 × 24 CSS px (WCAG 2.2, 2.5.8 Target Size
 * (Minimum)), from `getBoundingClientRect`: visible links, buttons, boxes, selects and summaries,
 * the skip link (off screen until focused) left out.
 */
const SMALL_TARGETS = `[...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary')]
  .filter((e) => e.getClientRects().length > 0 && !e.classList.contains('skip'))
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 23.5 || r.height < 23.5)
  .map(([e, r]) => e.tagName.toLowerCase() + ' "' + (e.textContent.trim() || e.getAttribute('aria-label') || e.name || '').slice(0, 40)
    + '" ' + Math.round(r.width) + 'x' + Math.round(r.height))`;

/** Presses Tab from the top of the page until `selector` has the focus; the number of presses (0 when never). */
async function tabsTo(page: Page, selector: string): Promise<number> {
  await page.evaluate('window.scrollTo(0, 0)'); // a page just loaded: the first Tab goes to the skip link
  for (let presses = 1; presses <= 60; presses++) {
    await page.keyboard.press('Tab');
    const focused = `document.activeElement !== null && document.activeElement.matches(${JSON.stringify(selector)})`;
    if (await page.evaluate<boolean>(focused)) return presses;
  }
  return 0;
}

jest.setTimeout(scaled(300_000));

describeWith('chromium')('the back office in a browser', () => {
  let browser: Browser;
  let kernel: DemoKernel;
  let server: Listening;
  let base: string;
  const problems: string[] = [];
  const violations: Array<{ step: string; id: string; impact: string; nodes: string[] }> = [];
  /** The 4xx answers seen, as `<status> <path>`: each one a step meant. */
  const refusals: string[] = [];

  /** A browser context in `locale`, whose pages report failed requests, 4xx and 5xx answers. */
  type Opened = { context: BrowserContext; page: Page; last: () => Response | null };
  const open = async (locale: string): Promise<Opened> => {
    const context = await browser.newContext({ viewport: SCREENS[0], locale });
    const page = await context.newPage();
    page.setDefaultTimeout(scaled(20_000));
    let last: Response | null = null;
    page.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
    page.on('response', (r) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) last = r;
      const where = new URL(r.url());
      if (r.status() >= 500) problems.push(`${r.url()}: ${r.status()}`);
      else if (r.status() >= 400 && where.pathname !== '/favicon.ico') refusals.push(`${r.status()} ${where.pathname}${where.search}`);
    });
    return { context, page, last: () => last };
  };

  /**
   * The checks of every page: no script; at each screen size its width, its targets and axe in
   * both colour schemes; `no-store` when a user is signed in; screenshots.
   */
  const check = async (page: Page, last: () => Response | null, step: string): Promise<void> => {
    if ((await page.$$('script')).length > 0) problems.push(`${step}: the page has a script`);
    if (await page.$('form.logout') !== null) {
      const cacheControl = last()?.headers()['cache-control'];
      if (cacheControl !== 'no-store, private') problems.push(`${step}: a signed-in page with Cache-Control ${cacheControl}`);
    }
    for (const screen of SCREENS) {
      await page.setViewportSize(screen);
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > screen.width) problems.push(`${step}: ${width} px wide at ${screen.width} px`);
      for (const small of await page.evaluate<string[]>(SMALL_TARGETS)) problems.push(`${step} at ${screen.width} px: ${small}`);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
        for (const v of results.violations) {
          violations.push({
            step: `${step} ${screen.width} ${colorScheme}`, id: v.id, impact: v.impact ?? '',
            nodes: v.nodes.map((n) => n.html.slice(0, 160)),
          });
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: path.join(SHOTS, `${step}-${screen.width}.png`), fullPage: true });
    }
    await page.setViewportSize(SCREENS[0]);
  };

  /** Signs in through the login page (`Sign in` in any language: the main form's submit button). */
  const signIn = async (page: Page, user: string): Promise<void> => {
    await page.goto(`${base}/admin/login`);
    await page.fill('#username', user);
    await page.fill('#password', user);
    await page.click('main button[type=submit]');
  };

  /** The layout around an error page: its title, the navigation and the logout button. */
  const errorPage = async (page: Page): Promise<{ h1: string; nav: number; logout: boolean }> => ({
    h1: (await page.textContent('h1'))?.trim() ?? '',
    nav: (await page.$$('header nav a')).length,
    logout: await page.isVisible('form.logout button'),
  });

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    kernel = createDemoKernel({ debug: false, environment: 'test' });
    const book = kernel.resources.find((r) => r.shortName === 'Book')!;
    for (let i = 1; i <= 20; i++) {
      await book.processor!.create(book.metadata, { title: i === 1 ? LONG : `Volume ${String(i).padStart(2, '0')}`, featured: false });
    }
    server = await listen(kernel);
    base = `http://${server.host}:${server.port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await kernel?.close();
  });

  describe('in English, as an administrator', () => {
    let context: BrowserContext;
    let page: Page;
    let last: () => Response | null;
    const titles = (): Promise<string[]> => page.$$eval('tbody tr', (rows) => rows.map((r) => r.querySelectorAll('td')[2]?.textContent?.trim() ?? ''));

    beforeAll(async () => ({ context, page, last } = await open('en-GB')));
    afterAll(() => context?.close());

    test('login: a wrong password shows the error, the right one opens the page first asked for', async () => {
      await page.goto(`${base}/admin/books`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      await page.fill('#username', 'admin');
      await page.fill('#password', 'wrong');
      await page.click('main button[type=submit]');
      expect(await page.textContent('[role=alert]')).toBe('Invalid credentials.');
      expect(await page.inputValue('#username')).toBe('admin');
      await check(page, last, '01-login-error');
      await page.fill('#password', 'admin');
      await page.click('main button[type=submit]');
      expect(new URL(page.url()).pathname).toBe('/admin/books');
      await page.click('text=Dashboard');
      expect(await page.textContent('h1')).toBe('Dashboard');
      expect(await page.textContent('.cards')).toContain('23 items');
      await check(page, last, '02-dashboard');
    });

    test('index: filters closed until used, empty fields kept out of the URL, long values cut', async () => {
      await page.goto(`${base}/admin/books`);
      expect(await page.getAttribute('details.filters-panel', 'open')).toBeNull();
      // the rows come before the filters: 35 Tab presses to the first row's box with the filters open
      const tabs = await tabsTo(page, 'tbody input[type=checkbox]');
      expect(tabs).toBeGreaterThan(0);
      expect(tabs).toBeLessThanOrEqual(23); // 20 before the header's language switcher (2-3 buttons) came
      // the 234-character title: two lines at most, its full text in title, no column pushed out of view
      const cut = await page.evaluate<{ title: string | null; height: number; line: number; scroll: number; client: number }>(`(() => {
        const cell = document.querySelector('td .cut'); const wrap = document.querySelector('.table-wrap');
        return { title: cell.getAttribute('title'), height: cell.getBoundingClientRect().height,
          line: parseFloat(getComputedStyle(cell).lineHeight), scroll: wrap.scrollWidth, client: wrap.clientWidth };
      })()`);
      expect(cut.title).toBe(LONG);
      expect(cut.height).toBeLessThanOrEqual(2 * cut.line + 1);
      expect(cut.scroll).toBeLessThanOrEqual(cut.client); // was 2102 px in a 1120 px wrapper
      await page.screenshot({ path: path.join(SHOTS, 'readme-index.png') });
      await page.setViewportSize(SCREENS[1]);
      await page.screenshot({ path: path.join(SHOTS, 'readme-index-phone.png') });
      await page.setViewportSize(SCREENS[0]);
      await check(page, last, '03-index');

      await page.click('summary:has-text("Filters")');
      await page.selectOption('select[name=featured]', 'true');
      await page.click('button:has-text("Search")');
      // the form sent a dozen empty fields; the list's URL keeps the one filter used
      expect(new URL(page.url()).search).toBe('?featured=true');
      expect(await page.getAttribute('details.filters-panel', 'open')).toBe('');
      expect(await page.textContent('summary')).toBe('Filters (1)');
      expect(await titles()).toEqual(['Dune']);
      await check(page, last, '03-index-filtered');

      await page.goto(`${base}/admin/books/4`);
      expect(await page.textContent('.detail')).toContain(LONG);
    });

    test('create: a validation error keeps the values and marks the field, then the book is created', async () => {
      await page.goto(`${base}/admin/books`);
      await page.click('text=New Book');
      await check(page, last, '04-new');
      await page.fill('#field-isbn', 'not an isbn');
      await page.selectOption('#field-author', { label: 'Dan Simmons (#2)' });
      await page.click('button:has-text("Create")');
      expect(await page.getAttribute('#field-title', 'aria-invalid')).toBe('true');
      expect(await page.textContent('#error-isbn')).toBe('Expected an ISBN-10 or ISBN-13.');
      expect(await page.inputValue('#field-isbn')).toBe('not an isbn');
      expect(await page.inputValue('#field-author')).toBe('2');
      await check(page, last, '05-new-errors');
      await page.fill('#field-title', 'The Fall of Hyperion');
      await page.fill('#field-isbn', '0-385-24950-6');
      await page.fill('#field-price', '8.5');
      await page.fill('#field-publishedAt', '1990-03-01');
      await page.click('button:has-text("Create")');
      expect(await page.textContent('[role=status]')).toContain('The Fall of Hyperion (#24) was created.');
      await check(page, last, '06-detail-created');
    });

    test('edit, then the item\'s history and the audit log show old → new values', async () => {
      await page.click('a.button:has-text("Edit")');
      await check(page, last, '07-edit');
      await page.fill('#field-title', 'The Fall of Hyperion (1990)');
      await page.check('#field-featured');
      await page.click('button:has-text("Save")');
      expect(await page.textContent('[role=status]')).toContain('was saved.');
      expect(await page.textContent('.detail')).toContain('The Fall of Hyperion (1990)');
      // the latest change first: the title's old value struck out, the new one inserted
      expect(await page.textContent('.history tbody tr del')).toBe('The Fall of Hyperion');
      expect(await page.textContent('.history tbody tr ins')).toBe('The Fall of Hyperion (1990)');
      await check(page, last, '07-detail-history');
      await page.click('text=Full history');
      expect(await page.$$('.history tbody tr')).toHaveLength(2); // created, then edited
      await page.screenshot({ path: path.join(SHOTS, 'readme-history.png') });
      await check(page, last, '07-item-history');
    });

    test('search, sort and paginate', async () => {
      await page.goto(`${base}/admin/books`);
      await page.fill('#query', 'hyperion');
      await page.click('button:has-text("Search")');
      expect(new URL(page.url()).search).toBe('?query=hyperion');
      expect(await titles()).toEqual(['Hyperion', 'The Fall of Hyperion (1990)']);
      await check(page, last, '08-search');
      await page.click('th >> text=Title');
      expect(await page.getAttribute('th[aria-sort=ascending]', 'aria-sort')).toBe('ascending');
      await page.click('th >> text=Title');
      expect(await titles()).toEqual(['The Fall of Hyperion (1990)', 'Hyperion']);
      expect(await page.getAttribute('th[aria-sort=descending] a', 'href')).toContain('sort=title');
      await check(page, last, '09-sort');

      await page.goto(`${base}/admin/books`);
      expect(await titles()).toHaveLength(20);
      await page.click('a[rel=next]');
      expect(await page.textContent('.pagination')).toContain('Page 2 of 2');
      expect(await titles()).toEqual(['Volume 18', 'Volume 19', 'Volume 20', 'The Fall of Hyperion (1990)']);
      await check(page, last, '10-page-2');
    });

    test('the inline switch, select-all, a custom action, and the export of the filtered list', async () => {
      await page.goto(`${base}/admin/books?query=volume&sort=title`);
      await page.click('button[role=switch][aria-label="Featured: Volume 02 (#5)"]');
      expect(new URL(page.url()).search).toBe('?query=volume&sort=title'); // back to the list as it was
      expect(await page.getAttribute('button[role=switch][aria-label="Featured: Volume 02 (#5)"]', 'aria-checked')).toBe('true');
      await page.click('a.select-all');
      expect(await page.evaluate<boolean>('[...document.querySelectorAll("tbody input[type=checkbox]")].every((b) => b.checked)')).toBe(true);
      await check(page, last, '10-select-all');
      await page.click('a.select-all'); // clear
      await page.click('a[aria-label="Feature: Volume 03 (#6)"]');
      await check(page, last, '10-action-confirm');
      await page.click('main button:has-text("Feature")');
      expect(await page.textContent('[role=status]')).toContain('Feature');
      expect(new URL(page.url()).search).toBe('?query=volume&sort=title');
      expect(await page.getAttribute('button[role=switch][aria-label="Featured: Volume 03 (#6)"]', 'aria-checked')).toBe('true');
      const csv = await page.request.get(`${base}${await page.getAttribute('a[download]', 'href')}`);
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
      const lines = (await csv.text()).trim().split(/\r?\n/);
      expect(lines).toHaveLength(1 + 19); // the header, then the 19 volumes the search finds
    });

    test('errors are pages inside the layout, with the navigation and the logout button', async () => {
      for (const [url, status] of [['/admin/books?price[gte]=abc', 400], ['/admin/books?page=99', 400], ['/admin/books/999', 404]] as const) {
        const res = await page.goto(`${base}${url}`);
        expect(res?.status()).toBe(status);
        expect(await errorPage(page)).toEqual({ h1: `Error ${status}`, nav: 4, logout: true });
        await check(page, last, `11-error-${status}${url.includes('page') ? '-page' : ''}`);
      }
      // an author books refer to: the delete is refused with the count and a link to them
      await page.goto(`${base}/admin/authors/1/delete`);
      const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('main button:has-text("Delete")')]);
      expect(refused.status()).toBe(409);
      expect(await page.$('main a[href="/admin/books?author=1"]')).not.toBeNull(); // the books that refer to it
      expect(await page.isVisible('form.logout button')).toBe(true);
      await check(page, last, '11-error-409');
    });

    test('delete after the confirmation page, then a batch delete back to the list as it was', async () => {
      await page.goto(`${base}/admin/books/24`);
      await page.click('a.button:has-text("Delete")');
      await check(page, last, '12-delete-confirm');
      await page.click('button:has-text("Delete")');
      expect(await page.textContent('[role=status]')).toContain('The Fall of Hyperion (1990) (#24) was deleted.');
      await page.goto(`${base}/admin/books?query=volume&sort=title&direction=desc`);
      await page.check('input[aria-label="Select Volume 20 (#23)"]');
      await page.check('input[aria-label="Select Volume 19 (#22)"]');
      await page.click('button:has-text("Delete selected")');
      expect(await page.textContent('.confirm-items')).toContain('Volume 20 (#23)');
      await check(page, last, '12-batch-confirm');
      await page.click('button:has-text("Delete selected")');
      expect(await page.textContent('[role=status]')).toContain('2 items were deleted: Volume 20 (#23), Volume 19 (#22).');
      expect(new URL(page.url()).search).toBe('?query=volume&sort=title&direction=desc');
      expect(await titles()).not.toContain('Volume 20');
      await check(page, last, '12-batch-deleted');
      await page.goto(`${base}/admin/audit`);
      // the deleted book by its last label, without a link
      expect(await page.textContent('.history tbody tr')).toContain('Volume 19');
      expect(await page.$('.history tbody tr:first-child td:nth-child(4) a')).toBeNull();
      await check(page, last, '12-audit');
    });

    test('logout ends the session, and Back does not show the last admin page from the cache', async () => {
      await page.goto(`${base}/admin/books`);
      expect(await page.textContent('caption')).toBe('21 items');
      await page.click('button:has-text("Log out")');
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      await check(page, last, '13-logged-out');
      await page.goBack(); // no-store: asked again, the server sends the login page
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      expect(await page.$('caption')).toBeNull();
    });
  });

  test('a ROLE_USER gets the 403 page inside the layout, and can log out from it', async () => {
    const { context, page, last } = await open('en-GB');
    await signIn(page, 'user');
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await errorPage(page)).toEqual({ h1: 'Error 403', nav: 4, logout: true });
    await check(page, last, '14-error-403');
    await page.click('button:has-text("Log out")');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await context.close();
  });

  test('en français : chaque page dans la langue du navigateur, mêmes vérifications', async () => {
    const { context, page, last } = await open('fr-FR');
    await page.goto(`${base}/admin/login`);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await check(page, last, 'fr-01-login');
    await signIn(page, 'admin');
    expect(await page.textContent('h1')).toBe('Tableau de bord');
    await check(page, last, 'fr-02-dashboard');
    await page.goto(`${base}/admin/books`);
    expect(await page.textContent('h1')).toBe('Livres');
    expect(await page.textContent('summary')).toBe('Filtres');
    await check(page, last, 'fr-03-index');
    await page.goto(`${base}/admin/books?featured=true&title=&price%5Bgte%5D=`);
    expect(new URL(page.url()).search).toBe('?featured=true');
    expect(await page.textContent('summary')).toBe('Filtres (1)');
    await page.goto(`${base}/admin/books/new`);
    await page.click('main button[type=submit]');
    expect(await page.getAttribute('#field-title', 'aria-invalid')).toBe('true');
    await check(page, last, 'fr-04-new-errors');
    await page.goto(`${base}/admin/books/1`);
    await check(page, last, 'fr-05-detail');
    await page.goto(`${base}/admin/books/1/edit`);
    await check(page, last, 'fr-06-edit');
    await page.goto(`${base}/admin/books/1/delete`);
    await check(page, last, 'fr-07-delete-confirm');
    await page.goto(`${base}/admin/audit`);
    await check(page, last, 'fr-08-audit');
    const res = await page.goto(`${base}/admin/books/999`);
    expect(res?.status()).toBe(404);
    expect(await errorPage(page)).toEqual({ h1: 'Erreur 404', nav: 4, logout: true });
    await check(page, last, 'fr-09-error-404');
    await page.goto(`${base}/admin/authors/1/delete`);
    await page.click('main button.danger');
    expect(await page.textContent('h1')).toContain('Supprimer');
    await check(page, last, 'fr-10-error-409');
    await page.click('form.logout button');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await context.close();
  });

  test('no page had an axe violation of any impact, an error, a 5xx, a small target or a width over the screen\'s', () => {
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    // the refusals the steps meant, and no other
    expect(refusals.sort()).toEqual([
      '400 /admin/books?page=99', '400 /admin/books?price[gte]=abc', '403 /admin', '404 /admin/books/999',
      '404 /admin/books/999', '409 /admin/authors/1/delete', '409 /admin/authors/1/delete',
      '422 /admin/books/new', '422 /admin/books/new',
    ].sort());
  });
});

describeWith('chromium')('the debug toolbar on the back office', () => {
  let browser: Browser;
  let kernel: DemoKernel;
  let server: Listening;
  let base: string;

  beforeAll(async () => {
    kernel = createDemoKernel({ debug: true });
    server = await listen(kernel);
    base = `http://${server.host}:${server.port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await kernel?.close();
  });

  /**
   * The elements of the page that lie under the toolbar once the page is scrolled to its end
   * (bounding boxes compared): none when the page leaves room for it.
   */
  const UNDER_TOOLBAR = `(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const bar = document.querySelector('.ek-wdt');
    const top = bar.getBoundingClientRect().top;
    return [...document.body.querySelectorAll('*')]
      .filter((e) => !bar.contains(e) && !e.classList.contains('ek-wdt-clearer') && e.getClientRects().length > 0)
      .filter((e) => e.getBoundingClientRect().height > 0)
      .filter((e) => e.getBoundingClientRect().bottom > top + 1)
      .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + (e.textContent || '').trim().slice(0, 30));
  })()`;

  test.each(SCREENS.map((s) => [`${s.width}x${s.height}`, s] as const))(
    'at %s no element of the page lies under the toolbar, and a form post is same-origin for the CORS panel',
    async (_name, screen) => {
      const context = await browser.newContext({ viewport: screen });
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(20_000));
      await page.goto(`${base}/admin/login`);
      await page.fill('#username', 'admin');
      await page.fill('#password', 'admin');
      await page.click('main button[type=submit]');
      for (const url of ['/admin/books', '/admin/books/1', '/admin/books/new']) {
        await page.goto(`${base}${url}`);
        await page.waitForSelector('.ek-toolbar-bar');
        expect(await page.evaluate<string[]>(UNDER_TOOLBAR)).toEqual([]);
      }
      // a form post answered with its page (a validation error): the toolbar shows the POST's profile
      const [posted] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('main button[type=submit]')]);
      expect(posted.status()).toBe(422);
      // the demo's Referrer-Policy: no-referrer makes Chrome send Origin: null, with Sec-Fetch-Site: same-origin
      expect(await posted.request().headerValue('sec-fetch-site')).toBe('same-origin');
      await page.waitForSelector('.ek-toolbar-bar');
      if (screen.width < 600) {
        // collapsed on a phone: its blocks shown on demand
        expect(await page.isVisible('.ek-block-cors')).toBe(false);
        await page.click('[data-ek-hide]');
      }
      expect((await page.textContent('.ek-block-cors'))?.replace(/\s+/g, ' ').trim()).toBe('CORS same origin');
      expect(await page.evaluate<string[]>(UNDER_TOOLBAR)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `toolbar-${screen.width}.png`), fullPage: true });
      await context.close();
    },
  );
});
