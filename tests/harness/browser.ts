/**
 * A real browser for tests: Debian's `chromium` driven by playwright-core. When the binary is
 * missing and the test runs as root it installs the package (as the compose test does with
 * Docker); otherwise it fails with one line saying what to install.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function found(): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  if (given) return fs.existsSync(given) ? given : undefined;
  return CANDIDATES.find((p) => fs.existsSync(p));
}

/** The chromium binary, installed with apt-get when missing and root. */
export function chromiumPath(): string {
  const have = found();
  if (have) return have;
  if (process.getuid?.() !== 0)
    throw new Error(
      'the browser tests need Debian’s chromium: run `apt-get install -y chromium` as root (or set CHROMIUM_PATH)',
    );
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, { stdio: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
  const now = found();
  if (!now) throw new Error('apt-get install chromium left no /usr/bin/chromium');
  return now;
}

export interface BrowserPage {
  browser: Browser;
  page: Page;
  /** console errors and uncaught exceptions seen so far, with the URL they were seen on */
  errors: string[];
  close(): Promise<void>;
}

export async function openBrowser(o: { width?: number; height?: number } = {}): Promise<BrowserPage> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console error on ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught on ${page.url()}: ${e.message}`));
  return { browser, page, errors, close: () => browser.close() };
}
