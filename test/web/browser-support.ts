// The reading pages' browser tests (viewer, leaderboards) use the shared Chromium helpers
// (test/support/browser.ts); this adds axe-core at a given width, answered as sentences a
// failing assertion prints whole.
import type { Page } from 'playwright-core';
import { axeViolations as violationsNow } from '../support/browser.ts';

export { CHROMIUM_PATH, collectPageErrors, launchChromium, screenshot } from '../support/browser.ts';

/** axe-core's violations at this width, each as "rule (impact): target, … — help". */
export async function axeViolations(page: Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 900 });
  return (await violationsNow(page)).map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')} — ${v.help}`);
}
