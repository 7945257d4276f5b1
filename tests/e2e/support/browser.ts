/**
 * Real Chromium (Debian's package) driven by playwright-core. `npx playwright install` cannot
 * download here, so the executable is found on disk. Under CI=true a missing Chromium is an error.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string | null {
  return CHROMIUM_PATHS.find((p) => existsSync(p)) ?? null;
}

/** Whether the e2e suite can run; throws under CI=true when Chromium is missing. */
export function chromiumAvailable(): boolean {
  const p = chromiumPath();
  if (!p && process.env.CI === 'true') throw new Error(`Chromium not found (looked in ${CHROMIUM_PATHS.join(', ')}); CI requires it`);
  return p !== null;
}

export interface BrowserHandle {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<BrowserHandle> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found');
  const profile = mkdtempSync(join(tmpdir(), 'zfsa-chromium-'));
  // playwright-core's launch adds --user-data-dir itself when given none; we pass a fresh one as an arg.
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--disk-cache-dir=${join(profile, 'cache')}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
