import { generateKeyPairSync } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { zipArchive } from './support/plugin-archive';
import { callApi as call } from './support/api-call';
import { startSiteServer, type SiteServer } from './support/site-server';
import { signIn } from './support/site-pages';

const WAIT = { timeout: 60_000 };
const POLL = { timeout: 60_000, interval: 250 };

describe('scanning in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('quarantines an upload holding a private key until an administrator releases it on the Trust page', async () => {
    const stamp = Date.now() % 1_000_000;
    const name = `Leaky Tool ${stamp}`;
    const key = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs1',
      format: 'pem',
    }) as string;
    const descriptor = `<idea-plugin>
  <id>com.example.leaky${stamp}</id><name>${name}</name><version>1.0.0</version>
  <vendor email="dev@example.com" url="https://example.com">Example Tools</vendor>
  <description>A tool whose developer left the deployment key in its resources.</description>
  <idea-version since-build="241" until-build="243.*"/>
  <depends>com.intellij.modules.platform</depends>
</idea-plugin>`;

    // The developer uploads (the vendor's REST client) and publishes; an administrator approves. The
    // approval waits for the scan, which quarantines the only version: the item is not listed.
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(zipArchive({ 'META-INF/plugin.xml': descriptor, 'deploy/id_rsa': key }))]),
      'leaky.jar',
    );
    form.append('licenseUrl', 'https://example.com/license');
    form.append('tags', 'Languages');
    const uploaded = await call(
      server,
      server.createToken('developer', 'upload'),
      '/api/plugins/intellij/upload',
      {
        method: 'POST',
        form,
      },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const pluginId = uploaded.body.id as number;
    const published = await call(
      server,
      server.createToken('developer', 'manage'),
      `/api/plugins/${pluginId}/publish`,
      {
        method: 'POST',
      },
    );
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const approved = await call(
      server,
      server.createToken('admin', 'manage'),
      `/api/plugins/${pluginId}/approve`,
      {
        method: 'POST',
      },
    );
    expect(approved.body).toMatchObject({ approved: true, listed: false });

    const admin = await openPage(browser);
    const visitor = await openPage(browser);
    const developer = await openPage(browser);
    try {
      // A visitor finds nothing at the item's address.
      await visitor.page.goto(`${server.origin}/plugin/${pluginId}/versions`);
      await visitor.page.getByRole('heading', { name: 'Page not found' }).waitFor(WAIT);

      // The developer sees why on the versions tab of the manage page: held, with the finding to fix.
      await developer.page.goto(`${server.origin}/dashboard/plugin/${pluginId}?section=versions`);
      await signIn(developer.page, 'developer', server.passwords.developer);
      const held = developer.page.getByRole('note', { name: 'Scan of version 1.0.0' });
      await held.getByRole('heading', { name: 'Held: the scan found 1 problem' }).waitFor(WAIT);
      await held.getByText('deploy/id_rsa').waitFor();
      await held.getByText(/An administrator will release it or reject it/).waitFor();
      expect(developer.errors).toEqual([]);

      // The administrator finds the version and its finding on the Trust page, and releases it.
      const page = admin.page;
      await page.goto(`${server.origin}/admin`);
      await signIn(page, 'admin', server.passwords.admin);
      await page
        .getByRole('navigation', { name: 'Administration' })
        .getByRole('link', { name: 'Trust' })
        .click();
      await page.waitForURL(/\/admin\/trust$/);
      const scans = page.getByRole('table', { name: 'Scanned versions' });
      const row = scans.getByRole('row', { name: new RegExp(name) });
      await row.waitFor(WAIT);
      await row.getByText('Quarantined').waitFor();
      await row.getByText('deploy/id_rsa').waitFor();
      await row
        .getByText(
          'A private key (RSA PRIVATE KEY) on line 1. Anyone who downloads the plugin could use it: revoke the key and upload a version without it.',
        )
        .waitFor();
      await row.getByLabel('Reason (optional)').fill('A throwaway key of the sample project, revoked');
      await row.getByRole('button', { name: `Release 1.0.0 of ${name}` }).click();
      await page.getByText(`Version 1.0.0 of ${name} is released: it is offered again.`).waitFor(WAIT);
      await row.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByRole('button', { name: 'Released', exact: true }).click();
      await scans
        .getByRole('row', { name: new RegExp(name) })
        .getByText('Released by admin: A throwaway key of the sample project, revoked')
        .waitFor(WAIT);

      // The version now shows on the public item page.
      await expect
        .poll(async () => (await call(server, undefined, `/api/plugins/${pluginId}`)).status, POLL)
        .toBe(200);
      await visitor.page.goto(`${server.origin}/plugin/${pluginId}/versions`);
      await visitor.page.getByRole('heading', { name, level: 1 }).waitFor(WAIT);
      const versions = visitor.page.getByRole('region', { name: 'Versions' }).getByRole('table');
      await versions.getByRole('row').filter({ hasText: '1.0.0' }).waitFor(WAIT);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
      await visitor.context.close();
      await developer.context.close();
    }
  });
});
