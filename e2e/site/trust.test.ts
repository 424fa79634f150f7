import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { pluginJar } from './support/plugin-archive';
import { callApi as call } from './support/api-call';
import { startSiteServer, type SiteServer } from './support/site-server';
import { signIn } from './support/site-pages';

const WAIT = { timeout: 60_000 };

describe('reserved namespaces in Chromium', () => {
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

  it("lets an administrator approve a vendor's prefix claim; another user's upload under it is then refused on the upload page", async () => {
    const stamp = Date.now() % 1_000_000;
    const vendor = `Trusty Vendor ${stamp}`;
    const prefix = `com.trusty${stamp}.`;

    // The developer publishes under a vendor of their own, then claims its namespace (the REST API).
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        new Uint8Array(
          pluginJar({
            xmlId: `${prefix}first`,
            name: `Trusty First ${stamp}`,
            version: '1.0.0',
            description: '<p>The first plugin of a vendor with a namespace of its own.</p>',
          }),
        ),
      ]),
      'first.jar',
    );
    form.append('licenseUrl', 'https://example.com/license');
    form.append('tags', 'Languages');
    form.append('vendor', vendor);
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
    const claimed = await call(server, server.createToken('developer', 'manage'), '/api/trust/namespaces', {
      method: 'POST',
      json: { prefix, vendor },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    const dnsRecord = claimed.body.dnsRecord as { name: string; value: string };
    expect(dnsRecord.name).toBe(`_marketplace-namespace.trusty${stamp}.com`);

    const admin = await openPage(browser);
    const visitor = await openPage(browser);
    try {
      // The administrator finds the claim with its TXT record in the Trust screen and approves it.
      const page = admin.page;
      await page.goto(`${server.origin}/admin`);
      await signIn(page, 'admin', server.passwords.admin);
      await page
        .getByRole('navigation', { name: 'Administration' })
        .getByRole('link', { name: 'Trust' })
        .click();
      await page.waitForURL(/\/admin\/trust$/);
      const table = page.getByRole('table', { name: 'Claims and grants' });
      const row = table.getByRole('row', { name: new RegExp(prefix.replaceAll('.', '\\.')) });
      await row.waitFor(WAIT);
      await row.getByText(dnsRecord.value).waitFor();
      await row.getByText('Waiting').waitFor();
      await row.getByLabel('Reason (optional)').fill('TXT record checked by hand');
      await row.getByRole('button', { name: `Approve ${prefix} for ${vendor}` }).click();
      await page.getByText(`The namespace ${prefix} of ${vendor} is approved.`).waitFor(WAIT);
      await row.getByText('Approved').waitFor(WAIT);
      await row.getByRole('button', { name: `Revoke ${prefix} for ${vendor}` }).waitFor();

      // Another user uploads a new plugin under that prefix from the site's upload page: refused, and told why.
      const upload = visitor.page;
      await upload.goto(`${server.origin}/dashboard`);
      await signIn(upload, 'visitor', server.passwords.visitor);
      await upload.goto(`${server.origin}/dashboard/new`);
      await upload.getByLabel('Plugin archive').setInputFiles({
        name: 'squat.jar',
        mimeType: 'application/java-archive',
        buffer: pluginJar({
          xmlId: `${prefix}squat`,
          name: `Squatter ${stamp}`,
          version: '1.0.0',
          description: '<p>Not theirs.</p>',
        }),
      });
      await upload.getByLabel('License URL').fill('https://example.com/license');
      const tags = upload.getByRole('combobox', { name: 'Tags' });
      await tags.fill('Langu');
      await upload.getByRole('option', { name: 'Languages', exact: true }).waitFor(WAIT);
      await tags.press('Enter');
      await upload.getByRole('button', { name: 'Upload plugin' }).click();
      await upload
        .getByText(
          `The id ${prefix}squat is in the namespace ${prefix}, which belongs to ${vendor}: only its people (owners and developers of its approved plugins) can publish new plugins there. Choose an id in a namespace of your own.`,
        )
        .first()
        .waitFor(WAIT);
      expect(upload.url()).toMatch(/\/dashboard\/new$/);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
      await visitor.context.close();
    }
  });
});
