import type {
  ApprovalQueueBody,
  AuditEntryBody,
  NamespaceAdminListBody,
  NamespaceClaimBody,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRows } from '../../src/search/sql';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

// The real application (buildApp): uploads go through the real multipart routes, with real archives.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: ReviewsTestApp;
const people = { alice: 0, mallory: 0, admin: 0 };

/** A plugin jar with this id, name and vendor, as a build writes it. */
async function jar(id: string, name: string, vendor = 'Example Ltd'): Promise<Buffer> {
  return archiveBytes(
    pluginJarContent(
      pluginXml({
        id: `<id>${id}</id>`,
        name: `<name>${name}</name>`,
        vendor: `<vendor email="dev@example.com" url="https://example.com">${vendor}</vendor>`,
      }),
    ),
  );
}

/** A new plugin uploaded as the site's upload page and the vendor's REST client send it. */
async function uploadNew(userId: number, id: string, name: string, vendor?: string) {
  const { body, headers } = multipartBody(
    { licenseUrl: 'https://example.com/license', tags: 'Tools' },
    { name: 'plugin.jar', content: await jar(id, name, vendor) },
  );
  const response = await t.call(userId, {
    method: 'POST',
    url: '/api/plugins/intellij/upload',
    headers,
    payload: body,
  });
  return {
    status: response.statusCode,
    body: response.json<{ id: number; message?: string; errors?: string[] }>(),
  };
}

beforeAll(async () => {
  t = await createReviewsTestApp({ catalogue: false });
  people.alice = await t.addUser('alice');
  people.mallory = await t.addUser('mallory');
  people.admin = await t.addUser('admin', { isAdmin: true });
  await t.db.execute(sql`INSERT INTO tags (name) VALUES ('Tools')`);
  const first = await uploadNew(people.alice, 'com.example.tool', 'Example Tool');
  expect(first.status).toBe(200);
  // Alice is one of Example Ltd's people once the moderators approve its first plugin.
  await approve(first.body.id);
});

/** The owner publishes the plugin and an administrator approves it, as on the site. */
async function approve(pluginId: number) {
  const owner = await selectRows<{ owner_id: number }>(
    t.db,
    sql`SELECT owner_id FROM plugins WHERE id = ${pluginId}`,
  );
  const published = await t.call(owner[0]!.owner_id, {
    method: 'POST',
    url: `/api/plugins/${pluginId}/publish`,
    payload: {},
  });
  expect(published.statusCode, published.body).toBe(200);
  const approved = await t.call(people.admin, {
    method: 'POST',
    url: `/api/plugins/${pluginId}/approve`,
    payload: {},
  });
  expect(approved.statusCode, approved.body).toBe(200);
}
afterAll(async () => t?.close());

describe('reserved namespaces', () => {
  it("refuses a new plugin in the vendor's own namespace to a fresh account", async () => {
    const answer = await uploadNew(people.mallory, 'com.jetbrains.squat', 'Squat', 'Mallory Inc');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The id com.jetbrains.squat is in the reserved namespace com.jetbrains.: only the vendor an administrator made its owner can publish there. Choose an id in a namespace of your own.',
    );
    // A look-alike letter does not slip past the reserved prefix either (a Cyrillic о in "jetbrаins").
    const disguised = await uploadNew(people.mallory, 'com.jetbr\u0430ins.squat', 'Squat', 'Mallory Inc');
    expect(disguised.status).toBe(400);
    expect(disguised.body.message).toContain('is in the reserved namespace com.jetbrains.');
    const [row] = await selectRows<{ count: string }>(
      t.db,
      sql`SELECT count(*)::text AS count FROM plugins WHERE xml_id LIKE 'com.jetbr%'`,
    );
    expect(row?.count).toBe('0');
  });

  it('cannot be claimed by a vendor, only granted by an administrator', async () => {
    const claim = await t.call(people.alice, {
      method: 'POST',
      url: '/api/trust/namespaces',
      payload: { prefix: 'org.jetbrains.example', vendor: 'Example Ltd' },
    });
    expect(claim.statusCode).toBe(400);
    expect(claim.json<{ message: string }>().message).toBe(
      'The namespace org.jetbrains. is reserved by the marketplace: only an administrator can grant org.jetbrains.example..',
    );
  });
});

describe('look-alikes', () => {
  it('refuses an id that differs from an existing one only by a Cyrillic letter, naming the existing item', async () => {
    const answer = await uploadNew(
      people.mallory,
      'com.\u0435xample.tool',
      'Totally Different',
      'Mallory Inc',
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The id com.\u0435xample.tool looks like com.example.tool (Example Tool), which already exists.',
    );
  });

  it('refuses ids equal after digit look-alikes, case and separators', async () => {
    for (const id of ['com.examp1e.tool', 'COM.EXAMPLE.TOOL', 'com.example-tool', 'com_example.tool']) {
      const answer = await uploadNew(people.mallory, id, `Something ${id.length}`, 'Mallory Inc');
      expect(answer.status, id).toBe(400);
      expect(answer.body.message, id).toBe(
        `The id ${id} looks like com.example.tool (Example Tool), which already exists.`,
      );
    }
  });

  it("refuses the exact display name of another vendor's plugin, and its look-alikes", async () => {
    const exact = await uploadNew(people.mallory, 'com.mallory.tool', 'Example Tool', 'Mallory Inc');
    expect(exact.status).toBe(400);
    expect(exact.body.message).toBe(
      'The name "Example Tool" is already the name of com.example.tool, a plugin of another vendor: choose a name of your own (<name> in plugin.xml).',
    );
    const disguised = await uploadNew(people.mallory, 'com.mallory.tool', 'Ex\u0430mple_TOOL', 'Mallory Inc');
    expect(disguised.status).toBe(400);
    expect(disguised.body.message).toBe(
      'The name "Ex\u0430mple_TOOL" looks like "Example Tool" (com.example.tool), which already exists: choose a name of your own (<name> in plugin.xml).',
    );
  });

  it("lets a vendor reuse its own item's name for another id", async () => {
    const own = await uploadNew(people.alice, 'com.example.tool.lite', 'Example Tool');
    expect(own.status).toBe(200);
  });

  it("holds a name a typo away from a popular item's for the moderators, with the reason in the approval queue", async () => {
    await t.db.execute(sql`UPDATE plugins SET downloads = 250000 WHERE xml_id = 'com.example.tool'`);
    const near = await uploadNew(people.mallory, 'com.mallory.near', 'Exmaple Tools', 'Mallory Inc');
    expect(near.status).toBe(200);
    const reason =
      'Look-alike name: "Exmaple Tools" is close to "Example Tool" (com.example.tool, 250,000 downloads), a popular item of another vendor. Check that it does not pose as it before approving.';
    const published = await t.call(people.mallory, {
      method: 'POST',
      url: `/api/plugins/${near.body.id}/publish`,
    });
    expect(published.statusCode).toBe(200);
    const queue = await t.call(people.admin, { url: '/api/admin/plugins/pending' });
    const entry = queue.json<ApprovalQueueBody>().find((item) => item.id === near.body.id);
    expect(entry?.flags).toEqual([reason]);
    // A name far from every popular one is not flagged.
    const far = await uploadNew(people.mallory, 'com.mallory.far', 'Rainbow Brackets', 'Mallory Inc');
    expect(far.status).toBe(200);
    const [notes] = await selectRows<{ count: string }>(
      t.db,
      sql`SELECT count(*)::text AS count FROM admin_notes WHERE plugin_id = ${far.body.id}`,
    );
    expect(notes?.count).toBe('0');

    // Renaming it afterwards into another vendor's name is refused the same way; its own name stays free.
    const renamed = await t.call(people.mallory, {
      method: 'PUT',
      url: `/api/plugins/${far.body.id}`,
      payload: { name: 'EXAMPLE-TOOL' },
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json<{ message: string }>().message).toBe(
      'The name "EXAMPLE-TOOL" looks like "Example Tool" (com.example.tool), which already exists: choose a name of your own (<name> in plugin.xml).',
    );
    const kept = await t.call(people.mallory, {
      method: 'PUT',
      url: `/api/plugins/${far.body.id}`,
      payload: { name: 'Rainbow  brackets' },
    });
    expect(kept.statusCode).toBe(200);
  });
});

describe('claimed namespaces', () => {
  let claim: NamespaceClaimBody;

  it('shows the claim with the DNS TXT record to publish, to the vendor and in the admin queue', async () => {
    const response = await t.call(people.alice, {
      method: 'POST',
      url: '/api/trust/namespaces',
      payload: { prefix: 'com.exampleltd', vendor: 'Example Ltd' },
    });
    expect(response.statusCode).toBe(200);
    claim = response.json<NamespaceClaimBody>();
    expect(claim).toMatchObject({ prefix: 'com.exampleltd.', state: 'pending', requestedBy: 'alice' });
    expect(claim.dnsRecord.name).toBe('_marketplace-namespace.exampleltd.com');
    expect(claim.dnsRecord.value).toMatch(/^marketplace-namespace=[0-9a-f]{32}$/);
    const mine = await t.call(people.alice, { url: '/api/trust/namespaces/mine' });
    expect(mine.json<NamespaceClaimBody[]>().map((item) => item.prefix)).toEqual(['com.exampleltd.']);
    expect((await t.call(people.mallory, { url: '/api/trust/namespaces/mine' })).json()).toEqual([]);
    const queue = await t.call(people.admin, { url: '/api/admin/trust/namespaces?state=pending' });
    const body = queue.json<NamespaceAdminListBody>();
    expect(body.reservedPrefixes).toEqual(['com.jetbrains.', 'com.intellij.', 'org.jetbrains.']);
    expect(body.claims.map((item) => [item.prefix, item.vendor.name])).toEqual([
      ['com.exampleltd.', 'Example Ltd'],
    ]);
  });

  it('refuses a claim for a vendor one does not publish for', async () => {
    const response = await t.call(people.mallory, {
      method: 'POST',
      url: '/api/trust/namespaces',
      payload: { prefix: 'com.exampleltd.', vendor: 'Example Ltd' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json<{ message: string }>().message).toBe(
      'Only the people of Example Ltd (owners and developers of its plugins) can claim namespaces for it.',
    );
  });

  it('does not lock anything until an administrator approves', async () => {
    const early = await uploadNew(people.mallory, 'com.exampleltd.early', 'Early Bird', 'Mallory Inc');
    expect(early.status).toBe(200);
    // Naming the vendor in plugin.xml is still open to anybody, but it makes nobody one of its people.
    const decoy = await uploadNew(people.mallory, 'org.mallory.decoy', 'Decoy Helper', 'Example Ltd');
    expect(decoy.status).toBe(200);
  });

  it('refuses ids under an approved prefix to others, naming the owner; its people and existing items are not affected', async () => {
    const approved = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/namespaces/${claim.id}/approve`,
      payload: { reason: 'TXT record checked' },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json<NamespaceClaimBody>()).toMatchObject({
      state: 'approved',
      decidedBy: 'admin',
      reason: 'TXT record checked',
    });

    const squat = await uploadNew(people.mallory, 'com.exampleltd.other', 'Other Thing', 'Mallory Inc');
    expect(squat.status).toBe(400);
    expect(squat.body.message).toBe(
      'The id com.exampleltd.other is in the namespace com.exampleltd., which belongs to Example Ltd: only its people (owners and developers of its approved plugins) can publish new plugins there. Choose an id in a namespace of your own.',
    );
    const own = await uploadNew(people.alice, 'com.exampleltd.first', 'First Of Ours');
    expect(own.status).toBe(200);
    // The item uploaded before the approval stays.
    const [early] = await selectRows<{ owner_id: number }>(
      t.db,
      sql`SELECT owner_id FROM plugins WHERE xml_id = 'com.exampleltd.early'`,
    );
    expect(early?.owner_id).toBe(people.mallory);

    // Deciding twice is refused; the decision is in the audit log.
    const again = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/namespaces/${claim.id}/refuse`,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      'The claim of com.exampleltd. is approved: only a pending claim can be refused.',
    );
    const audit = await t.call(people.admin, { url: '/api/admin/audit?action=namespace.approve' });
    expect(audit.json<AuditEntryBody[]>()).toEqual([
      expect.objectContaining({
        subject: 'namespace:com.exampleltd.',
        actorLogin: 'admin',
        reason: 'TXT record checked',
      }),
    ]);
  });

  it("is not opened to someone who named the vendor in a plugin of their own; nor is the vendor's name", async () => {
    const squat = await uploadNew(people.mallory, 'com.exampleltd.evil', 'Evil Helper', 'Example Ltd');
    expect(squat.status).toBe(400);
    expect(squat.body.message).toBe(
      'The id com.exampleltd.evil is in the namespace com.exampleltd., which belongs to Example Ltd: only its people (owners and developers of its approved plugins) can publish new plugins there. Choose an id in a namespace of your own.',
    );
    const borrowed = await uploadNew(people.mallory, 'org.mallory.second', 'Second Helper', 'Example Ltd');
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.message).toBe(
      'The vendor "Example Ltd" owns the namespace com.exampleltd., and only its people (owners and developers of its approved plugins) can publish new plugins under its name: ask its team to add you as a developer, or name your own vendor in plugin.xml.',
    );
    const [count] = await selectRows<{ count: string }>(
      t.db,
      sql`SELECT count(*)::text AS count FROM plugins WHERE xml_id IN ('com.exampleltd.evil', 'org.mallory.second')`,
    );
    expect(count?.count).toBe('0');
    // Alice, whose plugin of the vendor is approved, still publishes under both.
    expect((await uploadNew(people.alice, 'com.exampleltd.second', 'Second Of Ours')).status).toBe(200);
  });

  it('lets an administrator grant a reserved prefix to a vendor, whose people may then publish there', async () => {
    const granted = await t.call(people.admin, {
      method: 'POST',
      url: '/api/admin/trust/namespaces',
      payload: { prefix: 'com.intellij.example.', vendor: 'Example Ltd' },
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json<NamespaceClaimBody>()).toMatchObject({ state: 'approved', requestedBy: null });
    expect((await uploadNew(people.alice, 'com.intellij.example.helper', 'Helper Of Ours')).status).toBe(200);
    const other = await uploadNew(people.mallory, 'com.intellij.example.fake', 'Fake Helper', 'Mallory Inc');
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('which belongs to Example Ltd');
  });
});
