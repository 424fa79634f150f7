import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

/** `URLEncoder.encode(value, UTF_8)`: all but letters, digits and `.-*_` escaped, space as `+`. */
function javaUrlEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const TRACE = (xmlId: string) =>
  [
    'java.lang.IllegalStateException: Cannot parse settings.xml at line 7',
    `\tat ${xmlId}.settings.SettingsReader.parse(SettingsReader.kt:42)`,
    `\tat ${xmlId}.settings.SettingsReader.load$lambda$3(SettingsReader.kt:20)`,
    '\tat com.intellij.openapi.application.impl.ApplicationImpl.runReadAction(ApplicationImpl.java:911)',
    '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
  ].join('\n');

/** The body ITNProxy posts for a plugin's report, in its field order, before gzip. */
function ideReportForm(xmlId: string, version: string): string {
  const fields: [string, string][] = [
    ['protocol.version', '1.1'],
    ['user.login', 'idea_anonymous'],
    ['user.password', 'guest'],
    ['os.cpu.arch', 'X86_64'],
    ['os.name', 'Linux'],
    ['os.version', '6.8.0-45-generic'],
    ['java.version', '21.0.4+13-b509.17'],
    ['java.vm.vendor', 'JetBrains s.r.o.'],
    ['host.id', '7b9f0c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e'],
    ['app.name', 'IDEA'],
    ['app.name.full', 'IntelliJ IDEA'],
    ['app.name.version', '2024.2'],
    ['app.eap', 'false'],
    ['app.build', 'IU-242.21829.142'],
    ['app.version.major', '2024'],
    ['app.version.minor', '2'],
    ['app.build.date', '1723680000000'],
    ['app.build.date.release', '1723680000000'],
    ['app.product.code', 'IU'],
    ['app.build.number', '242.21829.142'],
    ['error.message', 'Cannot parse settings.xml at line 7'],
    ['error.stacktrace', TRACE(xmlId)],
    ['attachment.name', 'settings.xml'],
    ['attachment.value', Buffer.from('<settings/>').toString('base64')],
    ['update.channel.status', 'release'],
    ['plugin.id', xmlId],
    ['plugin.name', 'Demo plugin'],
    ['plugin.version', version],
    ['last.action', 'ShowSettings'],
    ['error.description', 'Opening the settings <b>crashed</b> my IDE'],
  ];
  return fields.map(([key, value]) => `${key}=${javaUrlEncode(value)}`).join('&');
}

describe('the exception analyzer in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let pluginId = 0;
  let xmlId = '';
  let reportId = 0;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    const developer = server.createToken('developer', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', developer);
    const [mine] = await getJson<{ id: number }[]>(
      server.origin,
      `/api/users/${me.id}/plugins?size=1`,
      developer,
    );
    if (!mine) throw new Error('The demo developer has no plugin.');
    pluginId = mine.id;
    const plugin = await getJson<{ info: { xmlId: string } }>(
      server.origin,
      `/api/plugins/${pluginId}`,
      developer,
    );
    xmlId = plugin.info.xmlId;

    // The IDE's report exactly as ITNProxy posts it: the gzipped form and java.net.http's headers.
    const response = await fetch(new URL('/trackerRpc/idea/createScr', server.origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        'content-encoding': 'gzip',
        'user-agent': 'Java-http-client/21.0.4',
      },
      body: gzipSync(ideReportForm(xmlId, '1.0.0')),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    // The IDE reads responseText.trim().toLong() and shows it to the user.
    expect(text.trim()).toMatch(/^\d+$/);
    reportId = Number(text.trim());
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the vendor the reported group on the exception-analyzer tab, and opens it', async () => {
    const vendor = await openPage(browser);
    try {
      const page = vendor.page;
      await page.goto(`${server.origin}/plugin/${pluginId}/exception-analyzer`);
      await signIn(page, 'developer', server.passwords.developer);
      const row = page.getByRole('row').filter({ hasText: 'Cannot parse settings.xml at line 7' });
      await row.waitFor(POLL);
      await row.getByText('Cannot parse settings.xml at line 7').waitFor();
      await row.getByText('New', { exact: true }).waitFor();
      await row.getByText('1.0.0', { exact: true }).waitFor();

      await row.getByRole('link', { name: 'IllegalStateException' }).click();
      await page.waitForURL(
        (url) => url.searchParams.has('group') && url.pathname.endsWith('/exception-analyzer'),
      );
      await page.getByRole('heading', { name: /java\.lang\.IllegalStateException/ }).waitFor(POLL);
      const trace = page.getByLabel('Stack trace');
      await trace.waitFor(POLL);
      expect(await trace.evaluate((element) => element.tagName)).toBe('PRE');
      expect(await trace.innerText()).toContain(
        `${xmlId}.settings.SettingsReader.parse(SettingsReader.kt:42)`,
      );
      await page.getByText(`Report ${reportId},`, { exact: false }).waitFor();
      await page
        .getByRole('table', { name: 'IDE builds' })
        .getByRole('cell', { name: 'IU-242.21829.142' })
        .waitFor();
      await page
        .getByRole('table', { name: 'Operating systems' })
        .getByRole('cell', { name: 'Linux 6.8.0-45-generic (X86_64)' })
        .waitFor();
      // The user's comment is shown as text: its markup is not rendered.
      await page.getByText('Opening the settings <b>crashed</b> my IDE').waitFor();
      expect(await page.locator('article b').count()).toBe(0);

      // The vendor marks it as being investigated; the list says so.
      await page.getByLabel('Status', { exact: true }).selectOption('investigating');
      await page.getByRole('button', { name: 'Save status' }).click();
      await page.getByRole('heading', { name: /Investigating/ }).waitFor(POLL);
      await page.getByRole('link', { name: '← All exceptions' }).click();
      await page
        .getByRole('row')
        .filter({ hasText: 'Cannot parse settings.xml at line 7' })
        .getByText('Investigating')
        .waitFor(POLL);
      expect(vendor.errors).toEqual([]);
    } finally {
      await vendor.context.close();
    }
  });
});
