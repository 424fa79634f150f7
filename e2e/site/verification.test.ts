import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { zipArchive } from './support/plugin-archive';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 60_000, interval: 250 };

const classFile = (major: number) => Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, major]);

describe('verification in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let pluginId = 0;

  beforeAll(async () => {
    // The server's worker looks for queued versions every second instead of every ten.
    process.env.VERIFICATION_INTERVAL_SECONDS = '1';
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
    const descriptor = `<idea-plugin>
  <id>${plugin.info.xmlId}</id><name>Verified demo</name><version>97.0.0</version>
  <vendor email="dev@example.com" url="https://example.com">Demo</vendor>
  <description>A version built for Java 21 that claims IDEs running Java 17, to be verified.</description>
  <idea-version since-build="241" until-build="243.*"/>
  <depends>com.intellij.modules.platform</depends>
  <product-descriptor code="PDEMOVERIFY" release-date="20260101" release-version="20261" optional="true"/>
</idea-plugin>`;
    const form = new FormData();
    form.set('pluginId', String(pluginId));
    const archive = zipArchive({
      'META-INF/plugin.xml': Buffer.from(descriptor),
      'com/example/verified/Modern.class': classFile(65),
    });
    form.set('file', new Blob([new Uint8Array(archive)]), 'verified.jar');
    const upload = await fetch(new URL('/api/updates/upload', server.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.createToken('developer', 'upload')}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    // The versions tab reads the verifications once: open it after the queue has verified this version.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const verified = await getJson<{ version: string }[]>(
        server.origin,
        `/api/verifications/application/${pluginId}`,
        developer,
      );
      if (verified.some((entry) => entry.version === '97.0.0')) break;
      if (Date.now() > deadline) throw new Error('Version 97.0.0 was not verified within 120 s.');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    delete process.env.VERIFICATION_INTERVAL_SECONDS;
    await browser?.close();
    await server?.close();
  });

  it('shows the item’s people the result per build, and lets them mark a false positive', async () => {
    const vendor = await openPage(browser);
    try {
      const page = vendor.page;
      await page.goto(`${server.origin}/plugin/${pluginId}/versions`);
      await signIn(page, 'developer', server.passwords.developer);
      const section = page.getByRole('region', { name: 'Verification' });
      const version = section.getByRole('button', { name: /97\.0\.0/ });
      await version.waitFor(POLL);
      await version.click();
      const results = section.getByRole('table', { name: 'Result per IDE build' });
      await results
        .getByRole('row')
        .filter({ hasText: 'IU-241.19416.15' })
        .getByText('Problems')
        .waitFor(POLL);
      await results
        .getByRole('row')
        .filter({ hasText: 'IU-243.28141.18' })
        .getByText('Compatible')
        .first()
        .waitFor();
      const finding = section
        .getByRole('list', { name: 'Findings' })
        .getByRole('listitem')
        .filter({ hasText: 'class file version 65' });
      await finding.waitFor();
      await finding.getByRole('button', { name: 'Mark false positive' }).click();
      await finding.getByText('False positive').waitFor(POLL);
      await results.getByRole('row').filter({ hasText: 'IU-241.19416.15' }).getByText('Problems').waitFor({
        state: 'detached',
        timeout: 30_000,
      });
      await section.getByRole('button', { name: 'Compare with previous' }).click();
      await section
        .getByLabel('Compared with the previous version')
        .or(section.getByText('no earlier verified version'))
        .first()
        .waitFor(POLL);
      expect(vendor.errors).toEqual([]);
    } finally {
      await vendor.context.close();
    }
  });

  it('shows administrators the verification queue', async () => {
    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin`);
      await signIn(page, 'admin', server.passwords.admin);
      const queue = page.getByRole('region', { name: 'Verification queue' });
      await queue.getByRole('row').filter({ hasText: '97.0.0' }).getByText('done').waitFor(POLL);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });
});
