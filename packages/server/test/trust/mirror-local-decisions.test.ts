import { createServer, type Server } from 'node:http';
import type {
  MirrorUpstreamBody,
  MirrorUpstreamListBody,
  ScheduledJobDetail,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRows } from '../../src/search/sql';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

/*
 * What a mirror must not take from its upstream: renames that pose as another item here, a local vendor's name
 * when that vendor is protected here, unsafe vendor addresses, and changes to items an administrator here
 * blocked, deleted or froze. The upstream is a small feed server of the test's own on loopback (real HTTP);
 * the mirror is the real server on its own database, synced by its trust-mirror job.
 */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const BUILD = 'IU-243.28141.18';

interface Offered {
  xmlId: string;
  version: string;
  name: string;
  vendor: string;
  vendorUrl?: string;
}

/** What the upstream's feed offers now: the newest version of each plugin, as a marketplace's feed does. */
const offered = new Map<string, Offered & { archive: Buffer }>();
let server: Server;
let origin: string;
let mirror: ReviewsTestApp;
let upstream: MirrorUpstreamBody;
const people = { admin: 0, developer: 0 };
const pollBefore = process.env.SCHEDULER_POLL_SECONDS;

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

async function offer(item: Offered): Promise<void> {
  const archive = await archiveBytes(
    pluginJarContent(
      pluginXml({
        id: `<id>${item.xmlId}</id>`,
        name: `<name>${xml(item.name)}</name>`,
        version: `<version>${item.version}</version>`,
      }),
    ),
  );
  offered.set(item.xmlId, { ...item, archive });
}

function feed(): string {
  const entries = [...offered.values()].map(
    (item) =>
      `<idea-plugin size="${item.archive.length}" url=""><name>${xml(item.name)}</name><id>${item.xmlId}</id><description>Does one thing.</description><version>${item.version}</version><vendor email="" url="${xml(item.vendorUrl ?? '')}">${xml(item.vendor)}</vendor><idea-version since-build="241" until-build="243.*"/><download-url>files/${item.xmlId}-${item.version}.jar</download-url></idea-plugin>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<plugin-repository>
<category name="Tools">
${entries.join('\n')}
</category>
</plugin-repository>
`;
}

/** Makes the upstream due and runs the mirror's job now; answers the run as the admin screen lists it. */
async function sync() {
  const due = await mirror.call(people.admin, {
    method: 'POST',
    url: `/api/admin/trust/mirrors/${upstream.id}/sync`,
  });
  expect(due.statusCode, due.body).toBe(200);
  const answer = await mirror.call(people.admin, { method: 'POST', url: '/api/scheduler/trust-mirror/run' });
  expect(answer.statusCode, answer.body).toBe(200);
  const job = answer.json<ScheduledJobDetail>().runs[0]!;
  expect(job.outcome, job.error ?? '').toBe('succeeded');
  const listed = await mirror.call(people.admin, { method: 'GET', url: '/api/admin/trust/mirrors' });
  const found = listed.json<MirrorUpstreamListBody>().upstreams.find((row) => row.id === upstream.id)!;
  return found.recentRuns[0]!;
}

async function item(xmlId: string) {
  const [row] = await selectRows<{
    name: string;
    versions: string[];
    vendor: string | null;
    vendor_url: string | null;
    url: string | null;
  }>(
    mirror.db,
    sql`SELECT p.name, p.url, v.name AS vendor, v.url AS vendor_url,
        ARRAY(SELECT pv.version FROM plugin_versions pv WHERE pv.plugin_id = p.id ORDER BY pv.id) AS versions
      FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id WHERE p.xml_id = ${xmlId}`,
  );
  if (!row) throw new Error(`${xmlId} is not on the mirror.`);
  return row;
}

beforeAll(async () => {
  process.env.SCHEDULER_POLL_SECONDS = '0';
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/plugins/list/') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(feed());
      return;
    }
    const file = /^\/plugins\/list\/files\/(.+)-([^-]+)\.jar$/.exec(path);
    const wanted = file ? offered.get(file[1]!) : undefined;
    if (wanted && wanted.version === file![2]) {
      response.writeHead(200, {
        'content-type': 'application/java-archive',
        'content-length': String(wanted.archive.length),
      });
      response.end(wanted.archive);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  mirror = await createReviewsTestApp({ catalogue: false });
  people.admin = await mirror.addUser('mirror-admin', { isAdmin: true });
  people.developer = await mirror.addUser('mirror-developer');
  await mirror.db.execute(sql`INSERT INTO tags (name) VALUES ('Tools')`);
  const added = await mirror.call(people.admin, {
    method: 'POST',
    url: '/api/admin/trust/mirrors',
    payload: { baseUrl: origin, builds: [BUILD] },
  });
  expect(added.statusCode, added.body).toBe(200);
  upstream = added.json<MirrorUpstreamBody>();
});

afterAll(async () => {
  if (pollBefore === undefined) delete process.env.SCHEDULER_POLL_SECONDS;
  else process.env.SCHEDULER_POLL_SECONDS = pollBefore;
  await mirror?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('renames from the upstream', () => {
  it('keeps the local name when the new one poses as another item here, saying why; other renames apply', async () => {
    const { body, headers } = multipartBody(
      { licenseUrl: 'https://example.com/license', tags: 'Tools' },
      {
        name: 'plugin.jar',
        content: await archiveBytes(
          pluginJarContent(
            pluginXml({
              id: '<id>com.example.local</id>',
              name: '<name>Local Thing</name>',
              version: '<version>1.0.0</version>',
            }),
          ),
        ),
      },
    );
    const local = await mirror.call(people.developer, {
      method: 'POST',
      url: '/api/plugins/intellij/upload',
      headers,
      payload: body,
    });
    expect(local.statusCode, local.body).toBe(200);

    await offer({ xmlId: 'com.example.zeta', version: '1.0.0', name: 'Zeta Tool', vendor: 'Zeta Ltd' });
    expect((await sync()).imported).toBe(1);

    await offer({ xmlId: 'com.example.zeta', version: '1.1.0', name: 'Local Thing', vendor: 'Zeta Ltd' });
    const refused = await sync();
    expect(refused.imported).toBe(1);
    expect(refused.notes).toContainEqual(
      expect.stringContaining(
        'com.example.zeta 1.1.0 was mirrored, but keeps its name "Zeta Tool" here: the source renamed it to "Local Thing", which was refused. The name "Local Thing" is already the name of com.example.local',
      ),
    );
    expect(await item('com.example.zeta')).toMatchObject({ name: 'Zeta Tool', versions: ['1.0.0', '1.1.0'] });

    await offer({ xmlId: 'com.example.zeta', version: '1.2.0', name: 'Zeta Tool Pro', vendor: 'Zeta Ltd' });
    const renamed = await sync();
    expect(renamed.notes).toEqual([]);
    expect((await item('com.example.zeta')).name).toBe('Zeta Tool Pro');
  });
});

describe('vendors of mirrored items', () => {
  it('never attaches an item to a protected local vendor, and stores only vendor addresses that are websites', async () => {
    const vendorIds: Record<string, number> = {};
    for (const [name, verified] of [
      ['Verified Corp', true],
      ['Namespace Corp', false],
      ['Signing Corp', false],
      ['Plain Corp', false],
    ] as const) {
      const [row] = await selectRows<{ id: number }>(
        mirror.db,
        sql`INSERT INTO vendors (name, url, verified) VALUES (${name}, 'https://vendor.example.com', ${verified})
          RETURNING id`,
      );
      vendorIds[name] = row!.id;
    }
    await mirror.db.execute(
      sql`INSERT INTO trust_namespaces (prefix, vendor_id, state, dns_token)
        VALUES ('com.nscorp.', ${vendorIds['Namespace Corp']}, 'approved', 'token')`,
    );
    await mirror.db.execute(
      sql`INSERT INTO vendor_signature_requirements (vendor_id) VALUES (${vendorIds['Signing Corp']})`,
    );
    const host = new URL(origin).host;
    await offer({
      xmlId: 'com.example.eta',
      version: '1.0.0',
      name: 'Eta Gauge',
      vendor: 'Verified Corp',
      vendorUrl: 'javascript:alert(document.cookie)',
    });
    await offer({
      xmlId: 'com.example.theta',
      version: '1.0.0',
      name: 'Theta Gauge',
      vendor: 'Namespace Corp',
    });
    await offer({ xmlId: 'com.example.iota', version: '1.0.0', name: 'Iota Gauge', vendor: 'Signing Corp' });
    await offer({
      xmlId: 'com.example.kappa',
      version: '1.0.0',
      name: 'Kappa Gauge',
      vendor: 'Plain Corp',
      vendorUrl: 'plain.example.org/kappa',
    });
    await offer({
      xmlId: 'com.example.lambda',
      version: '1.0.0',
      name: 'Lambda Gauge',
      vendor: 'Fresh Corp',
      vendorUrl: 'javascript:alert(1)',
    });
    expect((await sync()).imported).toBe(5);

    expect(await item('com.example.eta')).toMatchObject({
      vendor: `Verified Corp (mirrored from ${host})`,
      vendor_url: null,
      url: null,
    });
    expect((await item('com.example.theta')).vendor).toBe(`Namespace Corp (mirrored from ${host})`);
    expect((await item('com.example.iota')).vendor).toBe(`Signing Corp (mirrored from ${host})`);
    // An ordinary vendor of the same name is shared, as before; the item's website is made a link.
    expect(await item('com.example.kappa')).toMatchObject({
      vendor: 'Plain Corp',
      vendor_url: 'https://vendor.example.com',
      url: 'https://plain.example.org/kappa',
    });
    expect(await item('com.example.lambda')).toMatchObject({
      vendor: 'Fresh Corp',
      vendor_url: null,
      url: null,
    });
    const [protectedItems] = await selectRows<{ count: number }>(
      mirror.db,
      sql`SELECT count(*)::int AS count FROM plugins
        WHERE vendor_id IN (${vendorIds['Verified Corp']}, ${vendorIds['Namespace Corp']}, ${vendorIds['Signing Corp']})`,
    );
    expect(protectedItems!.count).toBe(0);
  });
});

describe("administrators' decisions on mirrored items", () => {
  it('leaves blocked, partly blocked, deleted and frozen items alone, naming each in the run', async () => {
    const greek = ['com.example.mu', 'com.example.nu', 'com.example.xi', 'com.example.omicron'];
    for (const xmlId of greek) {
      await offer({ xmlId, version: '1.0.0', name: `${xmlId.slice(12)} meter`, vendor: 'Greek Ltd' });
    }
    expect((await sync()).imported).toBe(4);
    await mirror.db.execute(sql`UPDATE plugins SET block_state = 'blocked' WHERE xml_id = 'com.example.mu'`);
    await mirror.db.execute(sql`UPDATE plugins SET block_state = 'partial' WHERE xml_id = 'com.example.nu'`);
    await mirror.db.execute(
      sql`UPDATE plugins SET lifecycle_state = 'deleted' WHERE xml_id = 'com.example.xi'`,
    );
    await mirror.db.execute(
      sql`UPDATE plugins SET modification_allowed = false WHERE xml_id = 'com.example.omicron'`,
    );

    for (const xmlId of greek) {
      await offer({ xmlId, version: '1.1.0', name: `${xmlId.slice(12)} meter renamed`, vendor: 'Greek Ltd' });
    }
    const run = await sync();
    expect(run.imported).toBe(0);
    const tail = ': no new versions or changes were mirrored to it.';
    expect(run.notes).toEqual(
      expect.arrayContaining([
        `com.example.mu (mu meter) is blocked by an administrator of this marketplace${tail}`,
        `com.example.nu (nu meter) is partly blocked by an administrator of this marketplace${tail}`,
        `com.example.xi (xi meter) was deleted by an administrator of this marketplace${tail}`,
        `com.example.omicron (omicron meter) may not be changed at the moment (an administrator of this marketplace disallowed changes)${tail}`,
      ]),
    );
    for (const xmlId of greek) {
      expect(await item(xmlId), xmlId).toMatchObject({
        name: `${xmlId.slice(12)} meter`,
        versions: ['1.0.0'],
      });
    }
  });
});

describe('changing upstreams', () => {
  it('answers a change without any field with a sentence, and changes nothing', async () => {
    for (const payload of [{}, { reason: 'checking' }]) {
      const answer = await mirror.call(people.admin, {
        method: 'PUT',
        url: `/api/admin/trust/mirrors/${upstream.id}`,
        payload,
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json<{ message: string }>().message).toBe(
        'Nothing to change: give the address, plugin ids, IDE builds, interval or whether the upstream is on.',
      );
    }
    const audit = await selectRows<{ count: number }>(
      mirror.db,
      sql`SELECT count(*)::int AS count FROM plugin_audit_log WHERE action = 'mirror.update'`,
    );
    expect(audit[0]!.count).toBe(0);
  });

  it("leaves the items of the old address alone once the upstream's address changes", async () => {
    await offer({ xmlId: 'com.example.rho', version: '1.0.0', name: 'Rho Meter', vendor: 'Greek Ltd' });
    expect((await sync()).imported).toBe(1);
    // The same server under another name: to the mirror, another marketplace.
    const moved = await mirror.call(people.admin, {
      method: 'PUT',
      url: `/api/admin/trust/mirrors/${upstream.id}`,
      payload: { baseUrl: origin.replace('127.0.0.1', 'localhost') },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    try {
      await offer({ xmlId: 'com.example.rho', version: '1.1.0', name: 'Rho Meter', vendor: 'Greek Ltd' });
      const run = await sync();
      expect(run.imported).toBe(0);
      expect(run.notes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^com\.example\.rho is mirrored from .*: it was left alone\.$/),
        ]),
      );
      expect((await item('com.example.rho')).versions).toEqual(['1.0.0']);
    } finally {
      const back = await mirror.call(people.admin, {
        method: 'PUT',
        url: `/api/admin/trust/mirrors/${upstream.id}`,
        payload: { baseUrl: origin },
      });
      expect(back.statusCode, back.body).toBe(200);
    }
  });

  it('answers 409 with a sentence when another administrator adds the same address at the same moment', async () => {
    const baseUrl = 'https://race.example.org';
    const add = () =>
      mirror.call(people.admin, { method: 'POST', url: '/api/admin/trust/mirrors', payload: { baseUrl } });
    let answer: Awaited<ReturnType<typeof add>>;
    if (mirror.testDatabase.kind === 'postgres') {
      // The other add's transaction has written the address but not committed: this add's check does not see
      // it, and its insert waits on the unique key until the other commits.
      const other = new pg.Client({ connectionString: mirror.testDatabase.databaseUrl });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query(
          `INSERT INTO mirror_upstreams (base_url, builds, interval_seconds) VALUES ($1, $2, 3600)`,
          [baseUrl, [BUILD]],
        );
        const pending = add();
        for (let waited = 0; ; waited += 20) {
          const { rows } = await other.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (rows[0]!.waiting > 0) break;
          if (waited > 10_000) throw new Error('The second add never waited on the first.');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query('COMMIT');
        answer = await pending;
      } finally {
        await other.end();
      }
    } else {
      // PGlite has one connection, so two adds never overlap: the other add's committed row is simulated by
      // the unique violation its insert would meet.
      await mirror.db.execute(
        sql.raw(`CREATE FUNCTION test_taken_address() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            RAISE unique_violation USING MESSAGE = 'duplicate key value violates unique constraint "mirror_upstreams_base_url_unique"';
          END $$`),
      );
      await mirror.db.execute(
        sql.raw(`CREATE TRIGGER test_taken_address BEFORE INSERT ON mirror_upstreams
          FOR EACH ROW WHEN (NEW.base_url = '${baseUrl}') EXECUTE FUNCTION test_taken_address()`),
      );
      try {
        answer = await add();
      } finally {
        await mirror.db.execute(sql.raw('DROP TRIGGER test_taken_address ON mirror_upstreams'));
        await mirror.db.execute(sql.raw('DROP FUNCTION test_taken_address()'));
      }
    }
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json<{ message: string }>().message).toBe(
      `${baseUrl} is mirrored already: change that upstream instead.`,
    );
  });
});
