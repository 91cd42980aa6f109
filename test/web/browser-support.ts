// The reading pages' browser tests (viewer, leaderboards) use the shared Chromium helpers
// (test/support/browser.ts); this adds axe-core at a given width, answered as sentences a
// failing assertion prints whole.
import type { Page } from 'playwright-core';
import { axeViolations as violationsNow } from '../support/browser.ts';

export { CHROMIUM_PATH, collectPageErrors, launchChromium, screenshot } from '../support/browser.ts';

/** Saves the organiser token in the page's browser as a person does: pasted on the organiser page, until the page says it is kept. */
export async function saveOrganiserToken(page: Page, token: string): Promise<void> {
  await page.goto('/organiser');
  await page.fill('#token-input', token);
  await page.press('#token-input', 'Enter');
  await page.locator('[data-token-status].ok').waitFor({ timeout: 30_000 });
}

/** axe-core's violations at this width, each as "rule (impact): target, … — help". */
export async function axeViolations(page: Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 900 });
  await scrollersSettled(page);
  return (await violationsNow(page)).map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')} — ${v.help}`);
}

/**
 * After a resize the page makes a sideways-scrolling table box a tab stop (and a box that no
 * longer scrolls none) once its resize handler has run: wait for that state, not for time.
 * Polled with evaluate, which the pages' CSP does not govern.
 */
async function scrollersSettled(page: Page, timeout = 5_000): Promise<void> {
  const settled = `[...document.querySelectorAll('.table-scroll')].every((box) => (box.scrollWidth > box.clientWidth) === (box.getAttribute('tabindex') === '0'))`;
  const end = Date.now() + timeout;
  while (!(await page.evaluate(settled))) {
    if (Date.now() > end) return; // axe then reports the box that is still wrong
    await new Promise((r) => setTimeout(r, 25));
  }
}
