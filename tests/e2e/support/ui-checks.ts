/**
 * What every e2e visit does: go to a view, wait for it to settle, screenshot it into
 * test-artifacts/screenshots/, and run axe-core in the page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'test-artifacts', 'screenshots');
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const VIEW_PATHS = ['', 'recommendations', 'optane', 'benchmarks', 'sizing', 'reports'] as const;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Loading states render role=status with a spinner; wait until none is left.
  await page.waitForFunction(() => document.querySelectorAll('main .spinner').length === 0, undefined, { timeout: 30_000 });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
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
