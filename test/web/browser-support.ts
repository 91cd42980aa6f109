// What the reading pages' browser tests share: Chromium, screenshots, page errors and
// axe-core. The same conventions as web-ui.test.ts (copied, not imported: importing a test
// file would run its tests here too).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium kept off the network (updates, sync, QUIC probes); a missing binary is an error, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. The web interface tests need a real browser: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// UPDATE_SCREENSHOTS=1 refreshes the ones kept in docs/screenshots/; otherwise they go to
// test-output/ (so an ordinary run leaves the working tree clean).
const SCREENSHOTS = fileURLToPath(new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots/' : '../../test-output/screenshots/', import.meta.url));

export async function screenshot(page: Page, name: string, width = 1280): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}${name}`, fullPage: true });
}

/** Script errors and console errors (CSP violations included) of a page; 4xx fetches are expected answers. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
  });
  return errors;
}

/** axe-core's violations (WCAG 2.x A/AA and best practices), each as "rule: target, …", at this width. */
export async function axeViolations(page: Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 900 });
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
}
