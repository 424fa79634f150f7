import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { zipArchive } from './support/plugin-archive';
import { getJson, signIn } from './support/site-pages';
import { startSiteServer, type SiteServer } from './support/site-server';

const POLL = { timeout: 60_000, interval: 250 };
const BANNED_MESSAGE = 'Your account is banned, so you cannot change anything here.';

interface AdminState {
  state: { lifecycleState: string; blockState: string; listed: boolean };
  versions: { id: number; version: string; approvalState: string; channel: string }[];
}

/** The status of a GET in Node, without the page (a visitor's view: no token unless given). */
async function statusOf(origin: string, path: string, token?: string): Promise<number> {
  const get = () =>
    fetch(new URL(path, origin), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const response = await get().catch(() => get());
  await response.arrayBuffer();
  return response.status;
}

describe('users and moderation in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let adminToken = '';
  let pluginId = 0;
  let newVersionId = 0;
  let olderVersionId = 0;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    adminToken = server.createToken('admin', 'manage');
    const developer = server.createToken('developer', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', developer);
    const mine = await getJson<{ id: number }[]>(
      server.origin,
      `/api/users/${me.id}/plugins?size=12`,
      developer,
    );
    // A listed item of the demo developer, given one more approved version to block.
    for (const candidate of mine) {
      if ((await statusOf(server.origin, `/api/plugins/${candidate.id}`)) === 200) {
        pluginId = candidate.id;
        break;
      }
    }
    if (!pluginId) throw new Error('The demo developer has no listed plugin.');
    const plugin = await getJson<{ info: { xmlId: string } }>(server.origin, `/api/plugins/${pluginId}`);
    const descriptor = `<idea-plugin>
  <id>${plugin.info.xmlId}</id><name>Moderated demo</name><version>98.0.0</version>
  <vendor email="dev@example.com" url="https://example.com">Demo</vendor>
  <description>A version an administrator will block, while the others stay available.</description>
  <idea-version since-build="241" until-build="243.*"/>
  <depends>com.intellij.modules.platform</depends>
  <product-descriptor code="PDEMOMOD" release-date="20260101" release-version="20261" optional="true"/>
</idea-plugin>`;
    const form = new FormData();
    form.set('pluginId', String(pluginId));
    form.set(
      'file',
      new Blob([new Uint8Array(zipArchive({ 'META-INF/plugin.xml': Buffer.from(descriptor) }))]),
      'moderated.jar',
    );
    const upload = await fetch(new URL('/api/updates/upload', server.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.createToken('developer', 'upload')}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    newVersionId = ((await upload.json()) as { id: number }).id;
    const approve = await fetch(new URL(`/api/plugins/${pluginId}/approve`, server.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(approve.status, await approve.clone().text()).toBe(200);
    const state = await getJson<AdminState>(
      server.origin,
      `/api/admin/plugins/${pluginId}/state`,
      adminToken,
    );
    const older = state.versions.find(
      (version) =>
        version.id !== newVersionId && version.approvalState === 'approved' && version.channel === '',
    );
    if (!older) throw new Error('The item has no other approved version.');
    olderVersionId = older.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('files a visitor’s report through the Report action, and an administrator resolves it', async () => {
    const visitor = await openPage(browser);
    try {
      await visitor.page.goto(`${server.origin}/plugin/${pluginId}`);
      await visitor.page.getByRole('button', { name: 'Report' }).first().click();
      const form = visitor.page.getByRole('form', { name: 'Report this plugin' });
      await form.getByLabel('Why do you report this plugin?').selectOption('Spam or misleading');
      await form.getByLabel('Details (optional)').fill('E2E: the description promises what it does not do');
      await form.getByRole('button', { name: 'Send report' }).click();
      await visitor.page.getByText('the administrators will look at your report').waitFor(POLL);
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.context.close();
    }

    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin/reports`);
      await signIn(page, 'admin', server.passwords.admin);
      // The admin area is in an administrator's header (and in no one else's: see the visitor below).
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Moderation' })
        .waitFor(POLL);
      const report = page.getByRole('listitem').filter({ hasText: 'E2E: the description promises' });
      await report.waitFor(POLL);
      await report.getByRole('textbox').fill('Asked the vendor to fix the description');
      await report.getByRole('button', { name: 'Resolve' }).click();
      await page.getByText('Report resolved').waitFor(POLL);
      await page.getByLabel('Show').selectOption('resolved');
      await page.getByText('Asked the vendor to fix the description').waitFor(POLL);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });

  it('bans a user with a reason; their next write is refused and they see why', async () => {
    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin/users`);
      await signIn(page, 'admin', server.passwords.admin);
      await page.getByLabel('Login, name or email').fill('visitor');
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.getByRole('row', { name: 'User visitor' });
      await row.getByRole('button', { name: 'Ban' }).click();
      await row.getByRole('button', { name: 'Confirm ban' }).click();
      await row.getByText('the reason is required').waitFor(POLL);
      await row.getByLabel('Reason for banning visitor').fill('E2E: spam reports');
      await row.getByRole('button', { name: 'Confirm ban' }).click();
      await row.getByText('E2E: spam reports').waitFor(POLL);
      await row.getByRole('button', { name: 'Unban' }).waitFor(POLL);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }

    const banned = await openPage(browser);
    try {
      const page = banned.page;
      await page.goto(`${server.origin}/plugin/${pluginId}`);
      await signIn(page, 'visitor', server.passwords.visitor);
      // Reading still works; writing does not.
      await page.getByRole('heading', { level: 1 }).waitFor(POLL);
      const mainNavigation = page.getByRole('navigation', { name: 'Main' });
      await mainNavigation.getByRole('link', { name: 'My items' }).waitFor(POLL);
      expect(await mainNavigation.getByRole('link', { name: 'Moderation' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Report' }).first().click();
      const form = page.getByRole('form', { name: 'Report this plugin' });
      await form.getByRole('button', { name: 'Send report' }).click();
      await form.getByRole('alert').filter({ hasText: BANNED_MESSAGE }).waitFor(POLL);
    } finally {
      await banned.context.close();
    }
  });

  it('blocks one version (gone for visitors, the others stay), deletes the item with a DSA statement and restores it', async () => {
    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin?plugin=${pluginId}`);
      await signIn(page, 'admin', server.passwords.admin);
      const actions = page.getByLabel('Moderation actions');
      await actions.getByRole('button', { name: 'Block versions' }).click();
      const dsa = page.getByRole('form', { name: /Block versions with a statement of reasons/ });
      await dsa.getByLabel('98.0.0').check();
      await dsa.getByLabel('Facts and circumstances').fill('E2E: 98.0.0 ships a broken build');
      await dsa.getByRole('button', { name: 'Confirm block versions' }).click();
      await page.getByRole('row', { name: 'Version 98.0.0' }).getByText('Blocked').waitFor(POLL);

      expect(await statusOf(server.origin, `/plugin/download?updateId=${newVersionId}`)).toBe(404);
      expect(await statusOf(server.origin, `/plugin/download?updateId=${olderVersionId}`)).toBe(200);
      expect(await statusOf(server.origin, `/api/plugins/${pluginId}`)).toBe(200);
      expect(
        await statusOf(
          server.origin,
          `/api/admin/install?pluginId=${pluginId}&updateId=${newVersionId}`,
          adminToken,
        ),
      ).toBe(200);

      await actions.getByRole('button', { name: 'Delete' }).click();
      const deletion = page.getByRole('form', { name: /Delete with a statement of reasons/ });
      await deletion.getByLabel('Ground of the decision').selectOption('ILLEGAL_CONTENT');
      await deletion.getByLabel('Legal ground (the law broken)').fill('E2E: copyright infringement');
      await deletion.getByLabel('Facts and circumstances').fill('E2E: bundles a copyrighted font');
      await deletion.getByRole('button', { name: 'Confirm delete' }).click();
      await page.getByLabel('State').getByText('deleted').waitFor(POLL);
      expect(await statusOf(server.origin, `/api/plugins/${pluginId}`)).toBe(404);

      await actions.getByRole('button', { name: 'Restore' }).click();
      await page.getByLabel('State').getByText('draft').waitFor(POLL);

      const audit = await getJson<
        { action: string; reason: string | null; details: Record<string, unknown> }[]
      >(server.origin, `/api/admin/audit?pluginId=${pluginId}&max=10`, adminToken);
      expect(audit.map((entry) => entry.action).slice(0, 3)).toEqual(['restore', 'delete', 'partial-block']);
      expect(audit[1]).toMatchObject({
        reason: 'E2E: bundles a copyrighted font',
        details: {
          dsaReport: { decisionGround: 'ILLEGAL_CONTENT', legalGround: 'E2E: copyright infringement' },
        },
      });

      await page.goto(`${server.origin}/admin/audit`);
      await page.getByLabel('Action').fill('ban-user');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('cell', { name: 'E2E: spam reports' }).waitFor(POLL);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });
});
