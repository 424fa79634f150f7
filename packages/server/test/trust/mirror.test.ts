import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  MirrorUpstreamBody,
  MirrorUpstreamListBody,
  PluginBody,
  ScheduledJobDetail,
  SearchPluginsResult,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/run';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { selectRows } from '../../src/search/sql';
import { createFileStore } from '../../src/storage';
import { exportMirror, MANIFEST_NAME, type MirrorManifest } from '../../src/trust/mirror';
import { workScanQueue } from '../../src/trust/scanning';
import { signZip } from '../../src/trust/signatures';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { freePort } from '../support/server-process';
import { makeChain } from './signatures/pki';

/*
 * Mirroring between real servers on loopback: the upstream is a second instance of this server (buildApp,
 * listening), with plugins uploaded, published and approved through its API; the mirror syncs it through the
 * scheduler's trust-mirror job, over HTTP. Faults come from a small HTTP server of the test's own.
 */
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** An IDE build the test plugins (since 241, until 243.*) install into. */
const BUILD = 'IU-243.28141.18';

let upstream: ReviewsTestApp;
let upstreamOrigin: string;
let mirror: ReviewsTestApp;
const people = { alice: 0, upstreamAdmin: 0, admin: 0, developer: 0 };
const pluginIds = new Map<string, number>();
const pollBefore = process.env.SCHEDULER_POLL_SECONDS;

async function jar(id: string, name: string, version: string): Promise<Buffer> {
  return archiveBytes(
    pluginJarContent(
      pluginXml({
        id: `<id>${id}</id>`,
        name: `<name>${name}</name>`,
        version: `<version>${version}</version>`,
        description: `<description><![CDATA[<p>${name} does one thing well, and it does it quickly.</p>]]></description>`,
        changeNotes: `<change-notes><![CDATA[<p>What is new in ${version}.</p>]]></change-notes>`,
      }),
    ),
  );
}

/** A new plugin uploaded to the upstream, published by its owner and approved by its administrator. */
async function publishOnUpstream(id: string, name: string): Promise<void> {
  const { body, headers } = multipartBody(
    { licenseUrl: 'https://example.com/license', tags: 'Tools' },
    { name: 'plugin.jar', content: await jar(id, name, '1.0.0') },
  );
  const uploaded = await upstream.call(people.alice, {
    method: 'POST',
    url: '/api/plugins/intellij/upload',
    headers,
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const pluginId = uploaded.json<{ id: number }>().id;
  pluginIds.set(id, pluginId);
  const published = await upstream.call(people.alice, {
    method: 'POST',
    url: `/api/plugins/${pluginId}/publish`,
  });
  expect(published.statusCode, published.body).toBe(200);
  await approveOnUpstream(pluginId);
}

/** Approved by the upstream's administrator and scanned by its scan job: offered in its feed. */
async function approveOnUpstream(pluginId: number): Promise<void> {
  const approved = await upstream.call(people.upstreamAdmin, {
    method: 'POST',
    url: `/api/plugins/${pluginId}/approve`,
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const scan = await runJob(upstream, people.upstreamAdmin, 'trust-scan');
  expect(scan.outcome, scan.error ?? '').toBe('succeeded');
}

/** The bytes the upstream serves over HTTP for a version. */
async function upstreamArchive(id: string, version: string): Promise<Buffer> {
  const response = await fetch(`${upstreamOrigin}/plugin/download?pluginId=${id}&version=${version}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The bytes the mirror serves for a version. */
async function mirrorArchive(id: string, version: string): Promise<Buffer> {
  const response = await mirror.app.inject({
    method: 'GET',
    url: `/plugin/download?pluginId=${id}&version=${version}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

async function addUpstream(body: Record<string, unknown>): Promise<MirrorUpstreamBody> {
  const answer = await mirror.call(people.admin, {
    method: 'POST',
    url: '/api/admin/trust/mirrors',
    payload: body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<MirrorUpstreamBody>();
}

/** Runs a job now, as the scheduler screen's "Run now" does; answers its newest run. */
async function runJob(on: ReviewsTestApp, adminId: number, jobId: string) {
  const answer = await on.call(adminId, { method: 'POST', url: `/api/scheduler/${jobId}/run` });
  expect(answer.statusCode, answer.body).toBe(200);
  const run = answer.json<ScheduledJobDetail>().runs[0];
  if (!run) throw new Error(`The job ${jobId} recorded no run.`);
  return run;
}

/**
 * Runs the mirror's trust-mirror job now, then its scan job: mirrored versions are scanned like uploads and
 * offered only once they pass.
 */
async function runMirrorJob() {
  const run = await runJob(mirror, people.admin, 'trust-mirror');
  const scan = await runJob(mirror, people.admin, 'trust-scan');
  expect(scan.outcome, scan.error ?? '').toBe('succeeded');
  return run;
}

async function upstreamOf(id: number): Promise<MirrorUpstreamBody> {
  const answer = await mirror.call(people.admin, { method: 'GET', url: '/api/admin/trust/mirrors' });
  expect(answer.statusCode, answer.body).toBe(200);
  const found = answer.json<MirrorUpstreamListBody>().upstreams.find((upstream) => upstream.id === id);
  if (!found) throw new Error(`Upstream ${id} is not listed.`);
  return found;
}

async function listedOnMirror(): Promise<string[]> {
  const answer = await mirror.app.inject({ method: 'GET', url: '/api/searchPlugins?max=100' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer
    .json<SearchPluginsResult>()
    .plugins.map((plugin) => plugin.xmlId)
    .sort();
}

async function mirrorFeed(): Promise<string> {
  const answer = await mirror.app.inject({ method: 'GET', url: `/plugins/list/?build=${BUILD}` });
  expect(answer.statusCode).toBe(200);
  return answer.body;
}

async function mirrorPlugin(xmlId: string): Promise<PluginBody> {
  const [row] = await selectRows<{ id: number }>(
    mirror.db,
    sql`SELECT id FROM plugins WHERE xml_id = ${xmlId}`,
  );
  if (!row) throw new Error(`${xmlId} is not on the mirror.`);
  const answer = await mirror.app.inject({ method: 'GET', url: `/api/plugins/${row.id}` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<PluginBody>();
}

beforeAll(async () => {
  // Jobs run only when the test runs them now.
  process.env.SCHEDULER_POLL_SECONDS = '0';
  const port = await freePort();
  upstreamOrigin = `http://127.0.0.1:${port}`;
  upstream = await createReviewsTestApp({ catalogue: false, env: { PUBLIC_URL: upstreamOrigin } });
  await upstream.app.listen({ port, host: '127.0.0.1' });
  people.alice = await upstream.addUser('alice');
  people.upstreamAdmin = await upstream.addUser('upstream-admin', { isAdmin: true });
  await upstream.db.execute(sql`INSERT INTO tags (name) VALUES ('Tools')`);
  await publishOnUpstream('com.example.alpha', 'Alpha Tool');
  await publishOnUpstream('com.example.beta', 'Beta Kit');
  await publishOnUpstream('com.example.gamma', 'Gamma Lens');

  mirror = await createReviewsTestApp({ catalogue: false });
  people.admin = await mirror.addUser('mirror-admin', { isAdmin: true });
  people.developer = await mirror.addUser('mirror-developer');
});

afterAll(async () => {
  if (pollBefore === undefined) delete process.env.SCHEDULER_POLL_SECONDS;
  else process.env.SCHEDULER_POLL_SECONDS = pollBefore;
  await mirror?.close();
  await upstream?.close();
});

describe('configuring upstreams', () => {
  it('is for administrators only, refuses bad input with a sentence and audits every change', async () => {
    const byDeveloper = await mirror.call(people.developer, {
      method: 'POST',
      url: '/api/admin/trust/mirrors',
      payload: { baseUrl: 'https://plugins.jetbrains.com' },
    });
    expect(byDeveloper.statusCode).toBe(403);

    const refusals: [Record<string, unknown>, number, string][] = [
      [
        { baseUrl: 'ftp://plugins.example.org' },
        400,
        '"ftp://plugins.example.org" is not a marketplace address: write it like https://plugins.jetbrains.com (http or https, no user name or password).',
      ],
      [{ baseUrl: 'https://user:secret@plugins.example.org' }, 400, 'is not a marketplace address'],
      [
        { baseUrl: 'https://plugins.example.com/' },
        400,
        "https://plugins.example.com is this marketplace's own address: it cannot mirror itself.",
      ],
      [
        { baseUrl: 'https://plugins.example.org', builds: ['next year'] },
        400,
        '"next year" is not an IDE build number: write it like IU-243.28141.18.',
      ],
      [
        { baseUrl: 'https://plugins.example.org', pluginIds: ['com.example.a b'] },
        400,
        '"com.example.a b" is not a plugin id',
      ],
      [
        { baseUrl: 'https://plugins.example.org', intervalSeconds: 5 },
        400,
        'The interval must be a whole number of seconds from 60 (a minute) to 2592000 (30 days).',
      ],
    ];
    for (const [payload, status, message] of refusals) {
      const answer = await mirror.call(people.admin, {
        method: 'POST',
        url: '/api/admin/trust/mirrors',
        payload,
      });
      expect(answer.statusCode, JSON.stringify(payload)).toBe(status);
      expect(answer.json<{ message: string }>().message).toContain(message);
    }
    const [{ count }] = (await selectRows<{ count: number }>(
      mirror.db,
      sql`SELECT count(*)::int AS count FROM mirror_upstreams`,
    )) as [{ count: number }];
    expect(count).toBe(0);

    // The feed's own address pasted whole is understood; the defaults fill what is not given.
    const added = await addUpstream({
      baseUrl: 'https://plugins.example.org/plugins/list/?build=IU-243.1',
      reason: 'Vendor mirror for the build farm',
    });
    expect(added).toMatchObject({
      baseUrl: 'https://plugins.example.org',
      host: 'plugins.example.org',
      allPlugins: true,
      intervalSeconds: 3600,
      enabled: true,
      lastOutcome: null,
    });
    expect(added.builds.length).toBeGreaterThan(0);
    const twice = await mirror.call(people.admin, {
      method: 'POST',
      url: '/api/admin/trust/mirrors',
      payload: { baseUrl: 'https://plugins.example.org' },
    });
    expect(twice.statusCode).toBe(409);
    const paused = await mirror.call(people.admin, {
      method: 'PUT',
      url: `/api/admin/trust/mirrors/${added.id}`,
      payload: { enabled: false },
    });
    expect(paused.json<MirrorUpstreamBody>().enabled).toBe(false);
    const removed = await mirror.call(people.admin, {
      method: 'DELETE',
      url: `/api/admin/trust/mirrors/${added.id}?reason=not%20needed`,
    });
    expect(removed.statusCode).toBe(204);
    const audit = await selectRows<{ action: string; reason: string | null }>(
      mirror.db,
      sql`SELECT action, details->>'reason' AS reason FROM plugin_audit_log
        WHERE details->>'subject' = 'mirror:https://plugins.example.org' ORDER BY id`,
    );
    expect(audit).toEqual([
      { action: 'mirror.add', reason: 'Vendor mirror for the build farm' },
      { action: 'mirror.update', reason: null },
      { action: 'mirror.remove', reason: 'not needed' },
    ]);
  });
});

describe('syncing a second instance on loopback', () => {
  let upstreamId: number;

  it('mirrors the chosen plugins: listed in search and the feed, marked, with the same bytes', async () => {
    const added = await addUpstream({
      baseUrl: upstreamOrigin,
      pluginIds: ['com.example.alpha'],
      builds: [BUILD],
      intervalSeconds: 600,
    });
    upstreamId = added.id;
    expect(added.allPlugins).toBe(false);

    const run = await runJob(mirror, people.admin, 'trust-mirror');
    expect(run.outcome, run.error ?? '').toBe('succeeded');
    expect(run.summary).toContain('imported 1 version(s)');
    // Held back like an upload until the scan passes it.
    expect(await listedOnMirror()).toEqual([]);
    expect((await runJob(mirror, people.admin, 'trust-scan')).summary).toBe('Scanned 1 version(s).');

    expect(await listedOnMirror()).toEqual(['com.example.alpha']);
    const feed = await mirrorFeed();
    expect(feed).toContain('<id>com.example.alpha</id>');
    expect(feed).not.toContain('com.example.beta');
    expect(await mirrorArchive('com.example.alpha', '1.0.0')).toEqual(
      await upstreamArchive('com.example.alpha', '1.0.0'),
    );

    const plugin = await mirrorPlugin('com.example.alpha');
    expect(plugin.info.name).toBe('Alpha Tool');
    expect(plugin.vendor.name).toBe('Example & Sons');
    expect(plugin.tags.map((tag) => tag.name)).toEqual(['Tools']);
    expect(plugin.mirroredFrom).toMatchObject({ host: new URL(upstreamOrigin).host, url: upstreamOrigin });
    expect(plugin.mirroredFrom!.originalUrl).toMatch(
      new RegExp(`^${upstreamOrigin.replace(/\./g, '\\.')}/plugin/download\\?updateId=\\d+$`),
    );
    const [version] = await selectRows<{ notes: string; since_build: string; until_build: string }>(
      mirror.db,
      sql`SELECT notes, since_build, until_build FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
        WHERE p.xml_id = 'com.example.alpha'`,
    );
    expect(version).toEqual({
      notes: '<p>What is new in 1.0.0.</p>',
      since_build: '241',
      until_build: '243.*',
    });

    const listed = await upstreamOf(upstreamId);
    expect(listed).toMatchObject({ lastOutcome: 'succeeded', mirroredItems: 1, lastError: null });
    expect(listed.recentRuns[0]).toMatchObject({ outcome: 'succeeded', imported: 1, failed: 0 });
    // Done: due again only after its interval.
    expect(listed.nextSyncAt).toBeGreaterThan(Date.now() + 500_000);
  });

  it('mirrors every plugin once switched to all, and new versions as the upstream publishes them', async () => {
    const { body, headers } = multipartBody(
      { xmlId: 'com.example.alpha' },
      { name: 'plugin.jar', content: await jar('com.example.alpha', 'Alpha Tool', '1.1.0') },
    );
    const uploaded = await upstream.call(people.alice, {
      method: 'POST',
      url: '/api/updates/upload',
      headers,
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await approveOnUpstream(pluginIds.get('com.example.alpha')!);

    const changed = await mirror.call(people.admin, {
      method: 'PUT',
      url: `/api/admin/trust/mirrors/${upstreamId}`,
      payload: { pluginIds: [] },
    });
    expect(changed.json<MirrorUpstreamBody>().allPlugins).toBe(true);
    const due = await mirror.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/mirrors/${upstreamId}/sync`,
    });
    expect(due.statusCode, due.body).toBe(200);

    const run = await runMirrorJob();
    expect(run.outcome, run.error ?? '').toBe('succeeded');
    expect(run.summary).toContain('imported 3 version(s)');
    expect(await listedOnMirror()).toEqual(['com.example.alpha', 'com.example.beta', 'com.example.gamma']);
    for (const [id, version] of [
      ['com.example.alpha', '1.0.0'],
      ['com.example.alpha', '1.1.0'],
      ['com.example.beta', '1.0.0'],
      ['com.example.gamma', '1.0.0'],
    ] as const) {
      expect(await mirrorArchive(id, version), `${id} ${version}`).toEqual(
        await upstreamArchive(id, version),
      );
    }
    expect(await mirrorFeed()).toMatch(/<id>com\.example\.alpha<\/id>[\s\S]*?<version>1\.1\.0<\/version>/);

    // Nothing new: the next sync finds everything here.
    await mirror.call(people.admin, { method: 'POST', url: `/api/admin/trust/mirrors/${upstreamId}/sync` });
    const again = await runMirrorJob();
    expect(again.outcome).toBe('succeeded');
    expect(again.summary).toContain('imported 0 version(s), 3 already here');
  });

  it('leaves an item published on the mirror under the same id alone', async () => {
    const jarBytes = await jar('com.example.local', 'Local Thing', '1.0.0');
    const { body, headers } = multipartBody(
      { licenseUrl: 'https://example.com/license', tags: 'Tools' },
      { name: 'plugin.jar', content: jarBytes },
    );
    const local = await mirror.call(people.developer, {
      method: 'POST',
      url: '/api/plugins/intellij/upload',
      headers,
      payload: body,
    });
    expect(local.statusCode, local.body).toBe(200);
    await publishOnUpstream('com.example.local', 'Local Thing Upstream');
    await mirror.call(people.admin, { method: 'POST', url: `/api/admin/trust/mirrors/${upstreamId}/sync` });
    const run = await runMirrorJob();
    expect(run.outcome).toBe('succeeded');
    const listed = await upstreamOf(upstreamId);
    expect(listed.recentRuns[0]!.notes).toContain(
      'com.example.local is published on this marketplace (Local Thing), not mirrored: it was left alone.',
    );
    const [row] = await selectRows<{ mirrored: boolean; versions: number }>(
      mirror.db,
      sql`SELECT EXISTS (SELECT 1 FROM mirrored_plugins m WHERE m.plugin_id = p.id) AS mirrored,
          (SELECT count(*)::int FROM plugin_versions pv WHERE pv.plugin_id = p.id) AS versions
        FROM plugins p WHERE p.xml_id = 'com.example.local'`,
    );
    expect(row).toEqual({ mirrored: false, versions: 1 });
  });
});

describe('an upstream that misbehaves', () => {
  type Mode = 'garbage' | 'cut' | 'wrong-digest' | 'bad-signature' | 'ok';
  let mode: Mode = 'garbage';
  let server: Server;
  let origin: string;
  /** The archive unsigned, signed by a chain made here, and signed then changed (a renamed entry). */
  const archives: Record<'plain' | 'signed' | 'tampered', Buffer> = {
    plain: Buffer.alloc(0),
    signed: Buffer.alloc(0),
    tampered: Buffer.alloc(0),
  };
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  function served(): Buffer {
    if (mode === 'bad-signature') return archives.tampered;
    return mode === 'ok' ? archives.signed : archives.plain;
  }

  /** The upstream's feed in the marketplace's shape, pointing at the server's own file address. */
  function feed(): string {
    return `<?xml version="1.0" encoding="UTF-8"?>
<plugin-repository>
<category name="Probes">
<idea-plugin downloads="12" size="${served().length}" date="1767225600000" url=""><name>Delta Probe</name><id>com.example.delta</id><description><![CDATA[<p>Probes things.</p>]]></description><version>1.0.0</version><vendor email="" url="">Delta Ltd</vendor><idea-version min="n/a" max="n/a" since-build="241" until-build="243.*"/><change-notes><![CDATA[<p>First.</p>]]></change-notes><download-url>files/delta-1.0.0.jar</download-url><rating>0.0</rating></idea-plugin>
</category>
</plugin-repository>
`;
  }

  beforeAll(async () => {
    archives.plain = await archiveBytes({
      ...pluginJarContent(
        pluginXml({
          id: '<id>com.example.delta</id>',
          name: '<name>Delta Probe</name>',
          version: '<version>1.0.0</version>',
        }),
      ),
      'README.txt': 'Delta Probe probes things.',
    });
    const { leaf, chain } = await makeChain('Delta');
    archives.signed = signZip(archives.plain, { privateKey: leaf.privateKey, certificateChain: chain });
    // The entry renamed in its local header and in the central directory: still a readable plugin, but no
    // longer what was signed.
    archives.tampered = Buffer.from(
      archives.signed.toString('latin1').replaceAll('README.txt', 'README.tx_'),
      'latin1',
    );
    expect(archives.tampered.length).toBe(archives.signed.length);
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === '/plugins/list/') {
        if (mode === 'garbage') {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end('Service temporarily overloaded, try later\u0000\u0001\u0002');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(feed());
        return;
      }
      if (path === '/plugins/list/files/delta-1.0.0.jar') {
        const bytes = served();
        const headers: Record<string, string> = {
          'content-type': 'application/java-archive',
          'content-length': String(bytes.length),
        };
        if (mode === 'wrong-digest') {
          headers['repr-digest'] = `sha-256=:${createHash('sha256').update('other bytes').digest('base64')}:`;
        }
        response.writeHead(200, headers);
        if (mode === 'cut') {
          // Half the archive, then the connection drops.
          response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.destroy());
          return;
        }
        response.end(bytes);
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  async function nothingOfDelta(): Promise<void> {
    const hashes = Object.values(archives).map(sha256);
    const rows = await selectRows<{ count: number }>(
      mirror.db,
      sql`SELECT (SELECT count(*)::int FROM plugins WHERE xml_id = 'com.example.delta')
        + (SELECT count(*)::int FROM plugin_versions WHERE file_hash IN (${sql.join(hashes, sql`, `)}))
        + (SELECT count(*)::int FROM file_claims WHERE file_hash IN (${sql.join(hashes, sql`, `)})) AS count`,
    );
    expect(rows[0]!.count).toBe(0);
    for (const hash of hashes) expect(await mirror.app.fileStore.has(hash)).toBe(false);
    const leftovers = (await readdir(join(mirror.config.dataDir, 'uploads'))).filter((name) =>
      name.endsWith('.part'),
    );
    expect(leftovers).toEqual([]);
  }

  it('records a failed run with a readable error, imports nothing, and succeeds once the upstream is well', async () => {
    const added = await addUpstream({ baseUrl: origin, builds: [BUILD] });
    const file = `${origin}/plugins/list/files/delta-1.0.0.jar`;

    mode = 'garbage';
    const garbage = await runMirrorJob();
    expect(garbage.outcome).toBe('failed');
    expect(garbage.error).toContain(
      `${origin}: imported 0 version(s), 0 already here. The answer of ${origin}/plugins/list/?build=${BUILD} is not a plugin repository feed: it is not XML`,
    );
    expect(garbage.error).toContain('it starts with "Service temporarily overloaded, try later');
    await nothingOfDelta();
    const listed = await upstreamOf(added.id);
    expect(listed).toMatchObject({ lastOutcome: 'failed' });
    expect(listed.lastError).toContain('is not a plugin repository feed');
    // Still due: the job's next turn tries again.
    expect(listed.nextSyncAt).toBeLessThanOrEqual(Date.now() + 1000);

    mode = 'cut';
    const cut = await runMirrorJob();
    expect(cut.outcome).toBe('failed');
    expect(cut.error).toMatch(
      new RegExp(
        `The download of ${file.replace(/\./g, '\\.')} was cut off after \\d+ of ${archives.plain.length} bytes`,
      ),
    );
    await nothingOfDelta();

    mode = 'wrong-digest';
    const wrong = await runMirrorJob();
    expect(wrong.outcome).toBe('failed');
    expect(wrong.error).toContain(
      `The archive of com.example.delta 1.0.0 from ${file} has SHA-256 ${sha256(archives.plain)}, but the source says`,
    );
    await nothingOfDelta();

    mode = 'bad-signature';
    const unsigned = await runMirrorJob();
    expect(unsigned.outcome).toBe('failed');
    expect(unsigned.error).toContain(
      `The signature of com.example.delta 1.0.0 from ${file} does not verify: The archive was changed after it was signed`,
    );
    await nothingOfDelta();

    mode = 'ok';
    const later = await runMirrorJob();
    expect(later.outcome, later.error ?? '').toBe('succeeded');
    expect(later.summary).toContain('imported 1 version(s)');
    // Kept as served, the upstream's signature with it.
    expect(await mirrorArchive('com.example.delta', '1.0.0')).toEqual(archives.signed);
    const plugin = await mirrorPlugin('com.example.delta');
    expect(plugin.mirroredFrom?.host).toBe(new URL(origin).host);
    expect(plugin.tags.map((tag) => tag.name)).toEqual(['Probes']);
    const runs = (await upstreamOf(added.id)).recentRuns.map((run) => [
      run.outcome,
      run.imported,
      run.failed,
    ]);
    expect(runs).toEqual([
      ['succeeded', 1, 0],
      ['failed', 0, 1],
      ['failed', 0, 1],
      ['failed', 0, 1],
      ['failed', 0, 0],
    ]);
  });
});

describe('an upstream whose download addresses lead elsewhere', () => {
  type Mode = 'other-loopback-port' | 'redirect-away' | 'metadata' | 'name-on-loopback' | 'redirect-home';
  let mode: Mode = 'other-loopback-port';
  let upstreamServer: Server;
  let internalServer: Server;
  let origin: string;
  let internal: string;
  let internalHits = 0;
  let archive: Buffer = Buffer.alloc(0);

  /** Where the feed says the archive is; the upstream itself serves it at /files/epsilon.jar. */
  function downloadUrl(): string {
    switch (mode) {
      case 'other-loopback-port':
        return `${internal}/epsilon.jar`;
      case 'metadata':
        return 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
      case 'name-on-loopback':
        return `http://localhost:${new URL(internal).port}/epsilon.jar`;
      case 'redirect-away':
      case 'redirect-home':
        return `${origin}/moved/epsilon.jar`;
    }
  }

  beforeAll(async () => {
    archive = await archiveBytes(
      pluginJarContent(
        pluginXml({
          id: '<id>com.example.epsilon</id>',
          name: '<name>Epsilon Gauge</name>',
          version: '<version>1.0.0</version>',
        }),
      ),
    );
    const serveArchive = (response: ServerResponse) => {
      response.writeHead(200, {
        'content-type': 'application/java-archive',
        'content-length': String(archive.length),
      });
      response.end(archive);
    };
    // A service inside the network the mirror must never be made to call: it would hand over a valid archive.
    internalServer = createServer((_request, response) => {
      internalHits += 1;
      serveArchive(response);
    });
    upstreamServer = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === '/plugins/list/') {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(`<?xml version="1.0" encoding="UTF-8"?>
<plugin-repository>
<category name="Gauges">
<idea-plugin size="${archive.length}" url=""><name>Epsilon Gauge</name><id>com.example.epsilon</id><description>Measures.</description><version>1.0.0</version><vendor>Epsilon Ltd</vendor><idea-version since-build="241" until-build="243.*"/><download-url>${downloadUrl()}</download-url></idea-plugin>
</category>
</plugin-repository>
`);
        return;
      }
      if (path === '/moved/epsilon.jar') {
        const target = mode === 'redirect-home' ? `${origin}/files/epsilon.jar` : `${internal}/epsilon.jar`;
        response.writeHead(302, { location: target }).end();
        return;
      }
      if (path === '/files/epsilon.jar') {
        serveArchive(response);
        return;
      }
      response.writeHead(404).end();
    });
    for (const server of [internalServer, upstreamServer]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    const portOf = (server: Server) => {
      const address = server.address();
      return typeof address === 'object' && address ? address.port : 0;
    };
    origin = `http://127.0.0.1:${portOf(upstreamServer)}`;
    internal = `http://127.0.0.1:${portOf(internalServer)}`;
  });
  afterAll(async () => {
    for (const server of [upstreamServer, internalServer]) {
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  async function nothingOfEpsilon(): Promise<void> {
    const rows = await selectRows<{ count: number }>(
      mirror.db,
      sql`SELECT count(*)::int AS count FROM plugins WHERE xml_id = 'com.example.epsilon'`,
    );
    expect(rows[0]!.count).toBe(0);
    expect(internalHits).toBe(0);
  }

  it('refuses download addresses and redirects to other private hosts, naming the address, and imports nothing', async () => {
    const added = await addUpstream({ baseUrl: origin, builds: [BUILD] });

    mode = 'other-loopback-port';
    const elsewhere = await runMirrorJob();
    expect(elsewhere.outcome).toBe('failed');
    expect(elsewhere.error).toContain(
      `${internal}/epsilon.jar was not fetched: 127.0.0.1 is a loopback address. The mirror fetches only from the upstream ${origin} and from hosts on public addresses.`,
    );
    await nothingOfEpsilon();
    const listed = await upstreamOf(added.id);
    expect(listed.lastOutcome).toBe('failed');
    expect(listed.lastError).toContain(`${internal}/epsilon.jar was not fetched`);

    mode = 'redirect-away';
    const redirected = await runMirrorJob();
    expect(redirected.outcome).toBe('failed');
    expect(redirected.error).toContain(
      `${internal}/epsilon.jar was not fetched: 127.0.0.1 is a loopback address. The mirror fetches only from the upstream ${origin} and from hosts on public addresses. (${origin}/moved/epsilon.jar redirected there)`,
    );
    await nothingOfEpsilon();

    mode = 'metadata';
    const metadata = await runMirrorJob();
    expect(metadata.outcome).toBe('failed');
    expect(metadata.error).toContain(
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/ was not fetched: 169.254.169.254 is a link-local address (where clouds answer instance metadata).',
    );
    await nothingOfEpsilon();

    // A name is checked on the addresses it resolves to, where the connection is made.
    mode = 'name-on-loopback';
    const named = await runMirrorJob();
    expect(named.outcome).toBe('failed');
    expect(named.error).toMatch(/was not fetched: localhost \((127\.0\.0\.1|::1)\) is a loopback address\./);
    await nothingOfEpsilon();

    // Redirects within the upstream itself are followed, as before.
    mode = 'redirect-home';
    const home = await runMirrorJob();
    expect(home.outcome, home.error ?? '').toBe('succeeded');
    expect(home.summary).toContain('imported 1 version(s)');
    expect(await mirrorArchive('com.example.epsilon', '1.0.0')).toEqual(archive);
    expect(internalHits).toBe(0);
  });
});

describe('carrying a mirror across an air gap', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mp-mirror-transfer-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  function cli(dataDir: string) {
    const output: string[] = [];
    const errors: string[] = [];
    const io: CliIo = {
      out: (line) => output.push(line),
      err: (line) => errors.push(line),
      env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://offline.example.net' },
      cwd: folder,
    };
    return { io, output, errors };
  }

  it('imports an export into a third database with the same bytes, and refuses a changed byte naming the file', async () => {
    const exported = join(folder, 'export');
    const result = await exportMirror({ db: mirror.db, fileStore: mirror.app.fileStore }, exported, {
      source: mirror.config.publicUrl,
    });
    expect(result.versions).toBeGreaterThanOrEqual(5);
    const manifest = JSON.parse(await readFile(join(exported, MANIFEST_NAME), 'utf8')) as MirrorManifest;
    const alpha = manifest.plugins.find((plugin) => plugin.xmlId === 'com.example.alpha')!;
    // Items the mirror took from the upstream say so on the far side too.
    expect(alpha.mirroredFrom).toBe(upstreamOrigin);
    const local = manifest.plugins.find((plugin) => plugin.xmlId === 'com.example.local');
    expect(local).toBeUndefined(); // a draft of the mirror's own, not listed

    const third = cli('third');
    expect(await runCli(['mirror', 'import', exported], third.io), third.errors.join('\n')).toBe(0);
    expect(third.output.at(-1)).toBe(`Imported ${result.versions} version(s); 0 already here; 0 refused.`);

    // The third instance, started on that database, scans what came in and then serves the upstream's bytes.
    const thirdDir = join(folder, 'third');
    const database = await openDatabase({ dataDir: thirdDir });
    const thirdApp = await buildApp({
      database,
      fileStore: createFileStore(thirdDir),
      config: loadConfig({ DATA_DIR: thirdDir, RESPONSE_CACHE_MS: '0' }, [], thirdDir),
    });
    try {
      await thirdApp.ready();
      expect(await workScanQueue(thirdApp)).toBe(`Scanned ${result.versions} version(s).`);
      const rows = await selectRows<{ xml_id: string; version: string; mirrored_from: string }>(
        database.db,
        sql`SELECT p.xml_id, pv.version, m.mirrored_from FROM plugin_versions pv
          JOIN plugins p ON p.id = pv.plugin_id JOIN mirrored_plugins m ON m.plugin_id = p.id
          WHERE pv.approval_state = 'approved' ORDER BY p.xml_id, pv.version`,
      );
      expect(rows.map((row) => `${row.xml_id} ${row.version}`)).toEqual([
        'com.example.alpha 1.0.0',
        'com.example.alpha 1.1.0',
        'com.example.beta 1.0.0',
        'com.example.delta 1.0.0',
        'com.example.epsilon 1.0.0',
        'com.example.gamma 1.0.0',
      ]);
      for (const row of rows) {
        const download = await thirdApp.inject({
          method: 'GET',
          url: `/plugin/download?pluginId=${row.xml_id}&version=${row.version}`,
        });
        expect(download.statusCode, download.body).toBe(200);
        // From the test's own upstream servers, not the instance.
        if (row.xml_id === 'com.example.delta' || row.xml_id === 'com.example.epsilon') continue;
        expect(download.rawPayload, `${row.xml_id} ${row.version}`).toEqual(
          await upstreamArchive(row.xml_id, row.version),
        );
        expect(row.mirrored_from).toBe(upstreamOrigin);
      }
    } finally {
      await thirdApp.close();
      await database.close();
    }

    // Exported again from the third instance (the command), the chosen plugin has the same archives.
    const again = join(folder, 'again');
    expect(await runCli(['mirror', 'export', again, '--plugins', 'com.example.alpha'], third.io)).toBe(0);
    const againManifest = JSON.parse(await readFile(join(again, MANIFEST_NAME), 'utf8')) as MirrorManifest;
    expect(againManifest.plugins.map((plugin) => plugin.xmlId)).toEqual(['com.example.alpha']);
    expect(againManifest.plugins[0]!.versions.map((version) => version.sha256)).toEqual(
      alpha.versions.map((version) => version.sha256),
    );

    // One changed byte: the whole import is refused, naming the file, and nothing is imported.
    const tampered = join(folder, 'tampered');
    await cp(exported, tampered, { recursive: true });
    const beta = manifest.plugins.find((plugin) => plugin.xmlId === 'com.example.beta')!.versions[0]!;
    const bytes = await readFile(join(tampered, beta.file));
    bytes[Math.floor(bytes.length / 3)]! ^= 0x01;
    await writeFile(join(tampered, beta.file), bytes);
    const fourth = cli('fourth');
    expect(await runCli(['mirror', 'import', tampered], fourth.io)).toBe(1);
    const refusal = fourth.errors.at(-1)!;
    expect(refusal).toContain('does not match its manifest, so nothing was imported');
    expect(refusal).toContain(`${beta.file}: its SHA-256 is `);
    expect(refusal).toContain(`but the manifest says ${beta.sha256}.`);
    const fourthDatabase = await openDatabase({ dataDir: join(folder, 'fourth') });
    try {
      const [count] = await selectRows<{ count: number }>(
        fourthDatabase.db,
        sql`SELECT count(*)::int AS count FROM plugins`,
      );
      expect(count!.count).toBe(0);
    } finally {
      await fourthDatabase.close();
    }
    // Three embedded databases are created and migrated on disk: minutes on a busy machine.
  }, 400_000);
});
