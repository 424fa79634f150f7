import { crc32 } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { buildSite, startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 60_000, interval: 250 };

/** A jar with stored entries, binary ones included (class files). */
function jar(entries: Record<string, Buffer>): Buffer {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...centrals, end]);
}

const classFile = (major: number) => Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, major]);

describe('verification in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let pluginId = 0;

  beforeAll(async () => {
    // The server's worker looks for queued versions every second instead of every ten.
    process.env.VERIFICATION_INTERVAL_SECONDS = '1';
    buildSite();
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
    const archive = jar({
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
        .filter({ hasText: 'IU-242.26775.15' })
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
      await results.getByRole('row').filter({ hasText: 'IU-242.26775.15' }).getByText('Problems').waitFor({
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
