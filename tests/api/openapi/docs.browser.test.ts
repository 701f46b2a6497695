/**
 * The interactive documentation page (`/api/docs`, Swagger UI from node_modules) in a real
 * Chromium, under the kernel's Content-Security-Policy as production sends it: the page renders
 * every operation of the document and the browser reports no CSP violation and no script error.
 * Skipped, with the reason printed, when no Chromium is installed.
 */
import { type Browser, type Page } from 'playwright-core';
import { createDemoKernel } from '../../../src/demo/app';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import type { KernelOptions } from '../../../src/kernel/options';
import { listen, type Listening } from '../../helpers/http';
import { launchChromium } from '../../helpers/browser';
import { describeWith } from '../../helpers/requirements';
import { docsTestRoutes, SMALL_DOCUMENT } from './docsFixture';
import { scaled } from '../../helpers/timeScale';


interface Loaded {
  operations: string[];
  problems: string[];
  csp: string | null;
}

/** Opens the page, waits for Swagger UI's operations, and gathers what went wrong on the way. */
async function openDocs(browser: Browser, base: string): Promise<Loaded> {
  const page: Page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
    console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI);
  });`);
  try {
    const response = await page.goto(`${base}/api/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: scaled(20_000) });
    const operations = await page.$$eval('.opblock-summary', (nodes) => nodes.map((n) => {
      const method = n.querySelector('.opblock-summary-method')?.textContent ?? '';
      const route = n.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
      return `${method} ${route}`;
    }));
    return { operations, problems, csp: (await response?.headerValue('content-security-policy')) ?? null };
  } finally {
    await page.close();
  }
}

describeWith('chromium')('the documentation page in a browser', () => {
  let browser: Browser;
  const started: Array<{ kernel: Kernel; server: Listening }> = [];

  const start = async (options: Partial<KernelOptions>): Promise<string> => {
    const kernel = createKernel({ routes: docsTestRoutes(), ...options });
    const server = await listen(kernel);
    started.push({ kernel, server });
    return `http://${server.host}:${server.port}`;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const { kernel, server } of started) {
      await server.close();
      await kernel.close();
    }
  });

  test('renders every operation under the production CSP, with no violation or script error', async () => {
    const loaded = await openDocs(browser, await start({ debug: false }));
    expect(loaded.csp).toContain("script-src 'self'");
    expect(loaded.operations.sort()).toEqual(SMALL_DOCUMENT_OPERATIONS);
    expect(loaded.problems).toEqual([]);
  });

  test('renders the same in debug mode with the CSP switched on (and the profiler toolbar injected)', async () => {
    const loaded = await openDocs(browser, await start({
      debug: true,
      securityHeaders: { contentSecurityPolicy: { useDefaults: true } },
    }));
    expect(loaded.csp).toContain("script-src 'self'");
    expect(loaded.operations.sort()).toEqual(SMALL_DOCUMENT_OPERATIONS);
    expect(loaded.problems).toEqual([]);
  });
});

describeWith('chromium')('the demo\'s documentation page in a browser', () => {
  test('shows every Book and Author operation of the generated document, under the production CSP', async () => {
    const browser = await launchChromium();
    const kernel = createDemoKernel({ debug: false });
    const server = await listen(kernel);
    try {
      const loaded = await openDocs(browser, `http://${server.host}:${server.port}`);
      const document = await (await fetch(`http://${server.host}:${server.port}/api/docs.json`)).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const expected = Object.entries(document.paths)
        .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
      expect(expected.length).toBeGreaterThanOrEqual(12);
      expect(loaded.operations.sort()).toEqual(expected.sort());
      expect(loaded.problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
      await kernel.close();
    }
  });
});

const SMALL_DOCUMENT_OPERATIONS = Object.entries(SMALL_DOCUMENT.paths)
  .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
  .sort();
