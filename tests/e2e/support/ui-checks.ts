/**
 * What every e2e visit does: go to a view, wait for it to settle, screenshot it into
 * test-artifacts/screenshots/, and run axe-core in the page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'test-artifacts', 'screenshots');
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const VIEW_PATHS = ['', 'recommendations', 'optane', 'benchmarks', 'sizing', 'planner', 'reports', 'hosts'] as const;

/** README screenshots (committed): written only when asked, so ordinary runs leave the tree alone. */
export const DOCS_SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
export const updateDocsScreenshots = process.env.UPDATE_DOCS_SCREENSHOTS === '1';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until the page is loaded and no spinner is left; `timeoutMs` for a server that works for minutes (an emulated guest). */
export async function settle(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: Math.max(timeoutMs, 30_000) });
  // Loading states render role=status with a spinner; wait until none is left.
  await page.waitForFunction(() => document.querySelectorAll('main .spinner').length === 0, undefined, { timeout: timeoutMs });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * A README screenshot: the 1280×720 viewport (not the full page) as PNG, always into
 * test-artifacts/screenshots/docs-NAME.png and, with UPDATE_DOCS_SCREENSHOTS=1, into docs/screenshots/.
 * Returns the paths written.
 */
export async function docsScreenshot(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const paths = [join(SCREENSHOT_DIR, `docs-${name}.png`)];
  if (updateDocsScreenshots) {
    mkdirSync(DOCS_SCREENSHOT_DIR, { recursive: true });
    paths.push(join(DOCS_SCREENSHOT_DIR, `${name}.png`));
  }
  const vp = page.viewportSize();
  if (!vp || vp.width !== 1280 || vp.height !== 720) throw new Error(`docs screenshots are 1280×720; the page is ${vp?.width}×${vp?.height}`);
  // Caret and focus ring off: the pictures stay the same from run to run.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const png = await page.screenshot({ fullPage: false, caret: 'hide', animations: 'disabled' });
  for (const p of paths) writeFileSync(p, png);
  return paths;
}

/** The header is one row: the brand and the theme selector share a line (their boxes overlap vertically). */
export async function headerIsOneRow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const brand = document.querySelector('.app-header .brand')?.getBoundingClientRect();
    const theme = document.querySelector('.app-header select[aria-label="Theme"]')?.getBoundingClientRect();
    if (!brand || !theme) return false;
    return theme.top < brand.bottom && brand.top < theme.bottom;
  });
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: number }

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP still applies to the app). */
export async function axeSeriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Page width must not exceed the viewport (no horizontal layout break). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
