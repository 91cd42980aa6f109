// Real headless Chromium for the web tests: launching it without network chatter, page
// errors that fail a test, screenshots, axe-core run inside the page from the local npm
// package (nothing is fetched), and the bytes a page loads.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

// Chromium's flags keep it from reaching out to the network (updates, sync, QUIC probes) on
// machines without one. A missing binary is an error, never a skipped test.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. The web interface tests need a real browser: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// Every run saves its screenshots under test-output/; UPDATE_SCREENSHOTS=1 refreshes the
// ones kept in docs/screenshots/ (so an ordinary test run leaves the working tree clean).
const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots/' : '../../test-output/screenshots/', import.meta.url),
);

/** Saves a full-page screenshot at the given width (see SCREENSHOTS for where). */
export async function screenshot(page: Page, name: string, width = 1280): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}${name}`, fullPage: true });
}

/**
 * Fails the test on any script error or console error in the page (CSP violations included).
 * A refused request (4xx) is let through unless `strict`: a page that knows it has no token
 * must not ask at all, so the every-page test counts those too.
 */
export function collectPageErrors(page: Page, o: { strict?: boolean } = {}): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && (o.strict || !/status of 4\d\d/.test(message.text())))
      errors.push(`${message.text()} (${message.location().url})`);
  });
  return errors;
}

/** axe-core's script, from the installed package: injected with evaluate, which the pages' CSP does not govern. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Every axe-core violation in the page as it is now (WCAG 2.x A and AA and best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  // Strings, not functions: the tests are compiled without the DOM's types.
  return await page.evaluate<AxeViolation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  })))`);
}

/**
 * Waits until every fragment of the page has loaded once and the token line says something.
 * Polled from here with evaluate (which the pages' CSP does not govern): waitForFunction
 * with a string builds a function inside the page, which the CSP's script-src refuses.
 */
export async function pageSettled(page: Page, timeout = 30_000): Promise<void> {
  const settled = `[...document.querySelectorAll('[data-fragment]')].every((el) => !el.querySelector('.loading'))
    && [...document.querySelectorAll('[data-token-status]')].every((el) => el.textContent !== '' && el.textContent !== 'Checking the token…')`;
  const end = Date.now() + timeout;
  while (!(await page.evaluate(settled))) {
    if (Date.now() > end) throw new Error(`the page ${page.url()} did not finish loading its fragments within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
