import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium; nothing is downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The host page: a *.localhost name, so Chromium treats it as loopback like the IDE (no Local Network Access
 * prompt, as for a page served from the visitor's machine), while the IDE, which trusts only "localhost"
 * itself, applies its trust rules to it as to any third-party site. The other site is a plain foreign origin.
 */
export const HOST_PAGE_HOST = 'host-page.localhost';
export const OTHER_SITE_HOST = 'other-site.test';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--host-resolver-rules=MAP ${HOST_PAGE_HOST} 127.0.0.1, MAP ${OTHER_SITE_HOST} 127.0.0.1`,
    ],
  });
}

/** A fresh context whose page errors fail the test instead of passing unnoticed. */
export async function openPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
