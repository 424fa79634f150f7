import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type {
  ExceptionGroupBody,
  ExceptionGroupsBody,
  ExceptionGroupSummary,
} from '@marketplace/api-contract';
import { EXCEPTION_LIMITS, EXCEPTION_REPORT_PATH, EXCEPTION_RETENTION } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client';
import { fileReport, readReportForm } from '../../src/insight/exceptions';
import { selectRows } from '../../src/search/sql';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * The exception analyzer through the real application: reports posted exactly as the IDE's ITNProxy posts
 * them (a gzipped form, its headers), grouped, reopened after a fix, refused when bad (and then nothing is
 * kept), limited per address, and read only by the item's people and administrators.
 */

/** `URLEncoder.encode(value, UTF_8)`: what Java escapes (all but letters, digits and `.-*_`), space as `+`. */
function javaUrlEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** ITNProxy's `append`: `key=value` pairs joined by `&`, empty values left out. */
function itnForm(fields: readonly (readonly [string, string | undefined])[]): string {
  return fields
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${javaUrlEncode(value)}`)
    .join('&');
}

const PLUGIN_XML_ID = 'com.acme.lint';

const TRACE = [
  'java.lang.IllegalStateException: Cannot read /home/alice/project/build.gradle: token 17',
  '\tat com.acme.lint.GradleReader.read(GradleReader.kt:42)',
  '\tat com.acme.lint.LintAction.actionPerformed$lambda$3(LintAction.kt:80)',
  '\tat com.acme.lint.LintAction$$Lambda/0x0000000801c3a448.run(Unknown Source)',
  '\tat com.intellij.openapi.actionSystem.ex.ActionUtil.performAction(ActionUtil.kt:311)',
  '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
  'Caused by: java.io.FileNotFoundException: /home/alice/project/build.gradle (No such file or directory)',
  '\tat java.base/java.io.FileInputStream.open0(Native Method)',
  '\tat com.acme.lint.io.Files$1.open(Files.java:30)',
  '\t... 4 more',
].join('\n');

/** The same defect in a later build: other lines, lambda numbers, hidden-class address and message. */
const SAME_DEFECT_LATER = TRACE.replace('GradleReader.kt:42', 'GradleReader.kt:57')
  .replace('LintAction.kt:80', 'LintAction.kt:91')
  .replace('actionPerformed$lambda$3', 'actionPerformed$lambda$7')
  .replace('0x0000000801c3a448', '0x00007f3a100c2b20')
  .replace('token 17', 'token 2')
  .replace('Files$1', 'Files$2');

const OTHER_DEFECT = [
  'java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null',
  '\tat com.acme.lint.rules.NamingRule.check(NamingRule.kt:12)',
  '\tat com.intellij.codeInspection.InspectionEngine.inspect(InspectionEngine.java:90)',
].join('\n');

interface ReportFields {
  pluginId?: string;
  version?: string;
  trace?: string;
  comment?: string;
  hostId?: string;
  build?: string;
  os?: [name: string, version: string];
}

/** The form ITNProxy builds for a plugin's report (createRequest with an ErrorBean), in its order. */
function reportForm(fields: ReportFields = {}): string {
  const [productCode, buildNumber] = (fields.build ?? 'IU-241.14494.240').split('-');
  const [osName, osVersion] = fields.os ?? ['macOS', '14.4.1'];
  return itnForm([
    ['protocol.version', '1.1'],
    ['user.login', 'idea_anonymous'],
    ['user.password', 'guest'],
    ['os.cpu.arch', 'aarch64'],
    ['os.name', osName],
    ['os.version', osVersion],
    ['java.version', '21.0.2+13-b375.1'],
    ['java.vm.vendor', 'JetBrains s.r.o.'],
    ['host.id', fields.hostId ?? 'f0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a4b'],
    ['app.name', 'IDEA'],
    ['app.name.full', 'IntelliJ IDEA'],
    ['app.name.version', '2024.1'],
    ['app.eap', 'false'],
    ['app.build', fields.build ?? 'IU-241.14494.240'],
    ['app.version.major', '2024'],
    ['app.version.minor', '1'],
    ['app.build.date', '1711929600000'],
    ['app.build.date.release', '1711929600000'],
    ['app.product.code', productCode],
    ['app.build.number', buildNumber],
    ['app.source.revision', 'a1b2c3d4e5f6'],
    ['error.message', 'Cannot read /home/alice/project/build.gradle: token 17'],
    ['error.stacktrace', fields.trace ?? TRACE],
    ['attachment.name', 'build.gradle'],
    ['attachment.value', Buffer.from('secret project file contents').toString('base64')],
    ['update.channel.status', 'release'],
    ['update.ignored.builds', ''],
    ['plugin.id', fields.pluginId ?? PLUGIN_XML_ID],
    ['plugin.name', 'Acme Lint'],
    ['plugin.version', fields.version ?? '1.1.0'],
    ['last.action', 'Acme.RunLint'],
    ['error.description', fields.comment],
    ['plugins.nonbundled', 'com.acme.lint,org.example.other'],
  ]);
}

/** The headers ITNProxy's java.net.http request carries. */
const IDE_HEADERS = {
  'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
  'content-encoding': 'gzip',
  'user-agent': 'Java-http-client/21.0.2',
};

async function insertedId(db: Database, statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await selectRows<{ id: number }>(db, statement);
  if (!row) throw new Error('The insert returned no row.');
  return row.id;
}

let addressCount = 0;
/** A client address of its own, so that one test's reports do not count against another's limit. */
function freshAddress(): string {
  addressCount += 1;
  return `10.1.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
}

describe.each(DATABASE_KINDS)('the exception analyzer on %s', (kind) => {
  let t: ReviewsTestApp;
  const people = { owner: 0, developer: 0, stranger: 0, admin: 0 };
  let pluginId = 0;
  let otherPluginId = 0;

  const post = (
    payload: string | Buffer,
    headers: Record<string, string> = IDE_HEADERS,
    remoteAddress = freshAddress(),
  ) => t.app.inject({ method: 'POST', url: EXCEPTION_REPORT_PATH, payload, headers, remoteAddress });
  const report = async (fields: ReportFields = {}) => {
    const response = await post(gzipSync(reportForm(fields)));
    expect(response.statusCode, response.body).toBe(200);
    return Number(response.body);
  };
  const groups = async (userId = people.owner, query = '', ofPlugin = pluginId) => {
    const response = await t.call(userId, {
      method: 'GET',
      url: `/api/plugins/${ofPlugin}/exceptions${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ExceptionGroupsBody;
  };
  const group = async (groupId: number, userId = people.owner) => {
    const response = await t.call(userId, {
      method: 'GET',
      url: `/api/plugins/${pluginId}/exceptions/${groupId}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ExceptionGroupBody;
  };
  const setStatus = (groupId: number, body: object, userId = people.owner) =>
    t.call(userId, {
      method: 'PUT',
      url: `/api/plugins/${pluginId}/exceptions/${groupId}/status`,
      payload: body,
    });
  const groupOfReport = async (reportId: number) => {
    const [row] = await selectRows<{ group_id: number }>(
      t.db,
      sql`SELECT group_id FROM exception_reports WHERE id = ${reportId}`,
    );
    return row!.group_id;
  };
  const counts = async () => {
    const [row] = await selectRows<Record<string, number>>(
      t.db,
      sql`SELECT (SELECT count(*)::int FROM exception_groups) AS groups,
          (SELECT count(*)::int FROM exception_reports) AS reports,
          (SELECT count(*)::int FROM exception_daily) AS daily,
          (SELECT count(*)::int FROM exception_installations) AS installations`,
    );
    return row;
  };

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind, catalogue: false });
    const addUser = (login: string, isAdmin = false) =>
      insertedId(
        t.db,
        sql`INSERT INTO users (login, name, is_admin) VALUES (${login}, ${login}, ${isAdmin}) RETURNING id`,
      );
    people.owner = await addUser('lint-owner');
    people.developer = await addUser('lint-developer');
    people.stranger = await addUser('stranger');
    people.admin = await addUser('administrator', true);
    pluginId = await insertedId(
      t.db,
      sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
        VALUES ('intellij', ${PLUGIN_XML_ID}, 'Acme Lint', ${people.owner}, 'published', true, now()) RETURNING id`,
    );
    await t.db.execute(
      sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (${pluginId}, ${people.developer})`,
    );
    otherPluginId = await insertedId(
      t.db,
      sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
        VALUES ('intellij', 'org.example.other', 'Other', ${people.stranger}, 'published', true, now()) RETURNING id`,
    );
  });

  afterAll(async () => t?.close());

  describe('receiving', () => {
    it('files the IDE’s gzipped form and answers the report id as plain text, as the IDE reads it', async () => {
      const response = await post(gzipSync(reportForm({ comment: 'It broke when I opened build.gradle' })));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      // ITNProxy: responseText.trim().toLong()
      expect(response.body).toMatch(/^\d+$/);
      const reportId = Number(response.body.trim());
      expect(reportId).toBeGreaterThan(0);

      const [stored] = await selectRows<Record<string, unknown>>(
        t.db,
        sql`SELECT plugin_version, build, product_name, os, java, message, stack_trace, comment, last_action,
            attachment_names, automatic FROM exception_reports WHERE id = ${reportId}`,
      );
      expect(stored).toEqual({
        plugin_version: '1.1.0',
        build: 'IU-241.14494.240',
        product_name: 'IntelliJ IDEA 2024.1',
        os: 'macOS 14.4.1 (aarch64)',
        java: '21.0.2+13-b375.1 (JetBrains s.r.o.)',
        message: 'Cannot read /home/alice/project/build.gradle: token 17',
        stack_trace: TRACE,
        comment: 'It broke when I opened build.gradle',
        last_action: 'Acme.RunLint',
        attachment_names: ['build.gradle'],
        automatic: false,
      });
    });

    it('keeps no login, password, host id or attachment content anywhere', async () => {
      const hostId = `host-${randomBytes(8).toString('hex')}`;
      await report({ hostId });
      const dump = await selectRows<{ row: string }>(
        t.db,
        sql`SELECT row_to_json(r)::text AS row FROM exception_reports r
          UNION ALL SELECT row_to_json(g)::text FROM exception_groups g
          UNION ALL SELECT row_to_json(i)::text FROM exception_installations i
          UNION ALL SELECT row_to_json(d)::text FROM exception_daily d`,
      );
      const everything = dump.map((entry) => entry.row).join('\n');
      expect(everything).not.toContain(hostId);
      expect(everything).not.toContain('idea_anonymous');
      expect(everything).not.toContain('"guest"');
      expect(everything).not.toContain('secret project file contents');
      expect(everything).not.toContain(Buffer.from('secret project file contents').toString('base64'));
      expect(everything).not.toContain('org.example.other');
    });

    it('also takes a form that is not gzipped', async () => {
      const response = await post(reportForm({ version: '1.1.1' }), {
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toMatch(/^\d+$/);
    });

    it('counts an installation once, by a salted hash of its host id', async () => {
      const first = await report({ trace: OTHER_DEFECT, hostId: 'install-a' });
      await report({ trace: OTHER_DEFECT, hostId: 'install-a' });
      await report({ trace: OTHER_DEFECT, hostId: 'install-b' });
      const detail = await group(await groupOfReport(first));
      expect(detail.total).toBe(3);
      expect(detail.installations).toBe(2);
    });
  });

  describe('grouping', () => {
    it('puts traces that differ only in lines, lambdas and messages in one group, and others apart', async () => {
      const first = await report({ version: '1.1.0' });
      const second = await report({ trace: SAME_DEFECT_LATER, version: '1.1.1', build: 'PS-241.15989.21' });
      const other = await report({ trace: OTHER_DEFECT.replace('NamingRule', 'CasingRule') });
      expect(await groupOfReport(second)).toBe(await groupOfReport(first));
      expect(await groupOfReport(other)).not.toBe(await groupOfReport(first));

      const detail = await group(await groupOfReport(first));
      expect(detail.exceptionClass).toBe('java.lang.IllegalStateException');
      expect(detail.message).toBe('Cannot read /home/alice/project/build.gradle: token 2');
      expect(detail.normalisedTrace).toBe(
        [
          'java.lang.IllegalStateException',
          'at com.acme.lint.GradleReader.read',
          'at com.acme.lint.LintAction.actionPerformed',
          'at com.acme.lint.LintAction$$Lambda.run',
          'caused by java.io.FileNotFoundException',
          'at com.acme.lint.io.Files.open',
        ].join('\n'),
      );
      expect(detail.pluginPackage).toBe('com.acme');
      // The latest report's whole trace, as sent.
      expect(detail.latest?.stackTrace).toBe(SAME_DEFECT_LATER);
      expect(detail.latest?.id).toBe(second);
      expect(detail.environment.builds).toEqual(
        expect.arrayContaining([
          { value: 'PS-241.15989.21', reports: 1 },
          expect.objectContaining({ value: 'IU-241.14494.240' }),
        ]),
      );
      expect(detail.environment.versions.map((count) => count.value)).toEqual(
        expect.arrayContaining(['1.1.0', '1.1.1']),
      );
      expect(detail.environment.operatingSystems[0]).toMatchObject({ value: 'macOS 14.4.1 (aarch64)' });
      expect(detail.environment.javaVersions[0]).toMatchObject({
        value: '21.0.2+13-b375.1 (JetBrains s.r.o.)',
      });
      expect(detail.comments.map((comment) => comment.text)).toContain('It broke when I opened build.gradle');
      expect(detail.versions.slice(0, 2)).toEqual(['1.1.1', '1.1.0']);
      expect(detail.firstSeen).toBeLessThanOrEqual(detail.lastSeen);
    });

    it('reopens a group fixed in a version when a later version reports it, with a note of why', async () => {
      const trace = OTHER_DEFECT.replace('NamingRule', 'ReopenRule');
      const groupId = await groupOfReport(await report({ trace, version: '1.1.0' }));
      const missingVersion = await setStatus(groupId, { status: 'fixed' });
      expect(missingVersion.statusCode).toBe(400);
      expect((missingVersion.json() as { message: string }).message).toMatch(/fixedInVersion/);
      const fixed = await setStatus(groupId, { status: 'fixed', fixedInVersion: '1.2.0' });
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.json()).toMatchObject({ status: 'fixed', fixedInVersion: '1.2.0', statusNote: '' });

      // Installations still on older versions keep failing: that does not reopen it.
      await report({ trace, version: '1.1.9' });
      await report({ trace, version: '1.2.0' });
      expect(await group(groupId)).toMatchObject({ status: 'fixed', fixedInVersion: '1.2.0' });

      await report({ trace, version: '1.10.0' });
      const reopened = await group(groupId);
      expect(reopened).toMatchObject({
        status: 'new',
        fixedInVersion: null,
        statusNote:
          'Reopened: a report came from version 1.10.0, later than 1.2.0 where it was marked fixed.',
      });
      expect(reopened.statusChangedAt).not.toBeNull();
      expect(reopened.total).toBe(4);

      const investigating = await setStatus(groupId, { status: 'investigating' }, people.developer);
      expect(investigating.json()).toMatchObject({
        status: 'investigating',
        statusNote: '',
        fixedInVersion: null,
      });
      const confused = await setStatus(groupId, { status: 'ignored', fixedInVersion: '1.0' });
      expect(confused.statusCode).toBe(400);
    });

    it('lists groups by their count of the last 30 days, with paging and a status filter', async () => {
      const busy = await groupOfReport(
        await report({ trace: OTHER_DEFECT.replace('NamingRule', 'BusyRule') }),
      );
      await report({ trace: OTHER_DEFECT.replace('NamingRule', 'BusyRule') });
      await report({ trace: OTHER_DEFECT.replace('NamingRule', 'BusyRule') });
      await report({ trace: OTHER_DEFECT.replace('NamingRule', 'BusyRule') });
      await report({ trace: OTHER_DEFECT.replace('NamingRule', 'BusyRule') });
      // An old group: many reports, but all two months ago.
      const old = await groupOfReport(await report({ trace: OTHER_DEFECT.replace('NamingRule', 'OldRule') }));
      await t.db.execute(
        sql`INSERT INTO exception_daily (group_id, dimension, day, value, reports)
          VALUES (${old}, 'total', (now() AT TIME ZONE 'UTC')::date - 60, '', 500)`,
      );
      await t.db.execute(
        sql`UPDATE exception_groups SET report_count = report_count + 500 WHERE id = ${old}`,
      );

      const list = await groups();
      const recents = list.groups.map((entry) => entry.recent);
      expect(recents).toEqual([...recents].sort((a, b) => b - a));
      const busyEntry = list.groups.find((entry) => entry.id === busy);
      const oldEntry = list.groups.find((entry) => entry.id === old);
      expect(busyEntry).toMatchObject({ recent: 5, total: 5 });
      expect(oldEntry).toMatchObject({ recent: 1, total: 501 });
      expect(list.groups.indexOf(busyEntry!)).toBeLessThan(list.groups.indexOf(oldEntry!));
      expect(list.recentDays).toBe(30);

      const secondPage = await groups(people.owner, '?size=1&page=2');
      expect(secondPage.total).toBe(list.total);
      expect(secondPage.groups).toEqual([list.groups[1]]);
      const ignored = await setStatus(old, { status: 'ignored' });
      expect(ignored.statusCode).toBe(200);
      const onlyIgnored = await groups(people.owner, '?status=ignored');
      expect(onlyIgnored.groups.map((entry: ExceptionGroupSummary) => entry.id)).toEqual([old]);
      expect((await groups(people.stranger, '', otherPluginId)).groups).toEqual([]);
    });

    it(`keeps the newest ${EXCEPTION_RETENTION.storedReports} reports whole and still counts them all`, async () => {
      const trace = OTHER_DEFECT.replace('NamingRule', 'ManyRule');
      const read = (comment = '') => readReportForm(reportForm({ trace, comment }));
      const first = await fileReport(t.db, pluginId, read('the first report, with a comment'), undefined);
      for (let index = 0; index < EXCEPTION_RETENTION.storedReports + 4; index++) {
        await fileReport(t.db, pluginId, read(), undefined);
      }
      const detail = await group(await groupOfReport(first));
      expect(detail.total).toBe(EXCEPTION_RETENTION.storedReports + 5);
      // The newest whole, and the older one that carries a user's comment.
      expect(detail.storedReports).toBe(EXCEPTION_RETENTION.storedReports + 1);
      expect(detail.comments.map((comment) => comment.text)).toEqual(['the first report, with a comment']);
    });
  });

  describe('bad input', () => {
    const refusals: [string, () => Promise<LightMyRequestResponse>, number, RegExp][] = [
      ['no plugin id', () => post(gzipSync(reportForm({ pluginId: '' }))), 400, /does not name a plugin/],
      [
        'an unknown plugin id',
        () => post(gzipSync(reportForm({ pluginId: 'com.unknown.plugin' }))),
        400,
        /no plugin with the id "com\.unknown\.plugin"/,
      ],
      ['no stack trace', () => post(gzipSync(reportForm({ trace: ' ' }))), 400, /no stack trace/],
      [
        'a stack trace that is not Java’s',
        () => post(gzipSync(reportForm({ trace: 'everything is fine\nreally' }))),
        400,
        /not a Java stack trace/,
      ],
      [
        'a 10 MB trace',
        () =>
          post(
            gzipSync(
              reportForm({
                trace: `${TRACE}\n${'\tat com.acme.lint.Deep.call(Deep.kt:1)\n'.repeat(260_000)}`,
              }),
            ),
          ),
        413,
        /MB once decompressed/,
      ],
      [
        'a trace over the limit within a body under the cap',
        () =>
          post(gzipSync(reportForm({ trace: `${TRACE}\n${'x'.repeat(EXCEPTION_LIMITS.stackTraceChars)}` }))),
        413,
        /stack trace is longer than 1 MB/,
      ],
      [
        'a gzip bomb',
        () => post(gzipSync(Buffer.alloc(100 * 1024 * 1024, 'a'), { level: 9 })),
        413,
        /MB once decompressed/,
      ],
      [
        'a body over the cap as sent',
        () => post(randomBytes(EXCEPTION_LIMITS.compressedBytes + 1024)),
        413,
        /MB as sent/,
      ],
      ['binary junk said to be gzip', () => post(randomBytes(4096)), 400, /not valid gzip/],
      [
        'binary junk sent plain',
        () =>
          post(Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xff, 0xfe]), {
            'content-type': IDE_HEADERS['content-type'],
          }),
        400,
        /not readable/,
      ],
      [
        'text that is not a form',
        () => post('hello there', { 'content-type': IDE_HEADERS['content-type'] }),
        400,
        /not a form/,
      ],
      ['an empty body', () => post(Buffer.alloc(0)), 400, /empty/],
      [
        'an encoding other than gzip',
        () => post(gzipSync(reportForm()), { ...IDE_HEADERS, 'content-encoding': 'br' }),
        400,
        /encoded as "br"/,
      ],
      [
        'JSON instead of the form',
        () => post(JSON.stringify({ 'plugin.id': PLUGIN_XML_ID }), { 'content-type': 'application/json' }),
        415,
        /sent as a form/,
      ],
    ];

    it.each(refusals)(
      'refuses %s with a sentence, and keeps nothing',
      async (_name, send, status, message) => {
        const before = await counts();
        const response = await send();
        expect(response.statusCode, response.body).toBe(status);
        const body = response.json() as { type: string; message: string };
        expect(body.type).toBe('error');
        expect(body.message).toMatch(message);
        expect(await counts()).toEqual(before);
      },
    );
  });

  describe('a flood from one address', () => {
    it(`is stopped after ${EXCEPTION_LIMITS.reportsPerMinute} reports a minute with 429, other addresses go on`, async () => {
      const flooder = freshAddress();
      const statuses: number[] = [];
      for (let index = 0; index < EXCEPTION_LIMITS.reportsPerMinute; index++) {
        // Cheap requests count as much as real ones: the limit comes before any reading.
        statuses.push((await post(Buffer.alloc(0), IDE_HEADERS, flooder)).statusCode);
      }
      expect(statuses.every((status) => status === 400)).toBe(true);
      const before = await counts();
      const limited = await post(gzipSync(reportForm()), IDE_HEADERS, flooder);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((limited.json() as { message: string }).message).toMatch(/Too many error reports/);
      expect(await counts()).toEqual(before);
      expect((await post(gzipSync(reportForm()), IDE_HEADERS, freshAddress())).statusCode).toBe(200);
    });
  });

  describe('who may read and mark groups', () => {
    it('lets the item’s people and administrators read, and refuses strangers and guests', async () => {
      const groupId = await groupOfReport(await report());
      expect((await groups(people.owner)).total).toBeGreaterThan(0);
      expect((await groups(people.developer)).total).toBeGreaterThan(0);
      expect((await groups(people.admin)).total).toBeGreaterThan(0);
      expect((await group(groupId, people.admin)).id).toBe(groupId);

      const url = `/api/plugins/${pluginId}/exceptions`;
      expect((await t.call(people.stranger, { method: 'GET', url })).statusCode).toBe(403);
      expect((await t.call(undefined, { method: 'GET', url })).statusCode).toBe(401);
      expect((await t.call(people.stranger, { method: 'GET', url: `${url}/${groupId}` })).statusCode).toBe(
        403,
      );
      const stranger = await setStatus(groupId, { status: 'ignored' }, people.stranger);
      expect(stranger.statusCode).toBe(403);
      expect((await group(groupId)).status).not.toBe('ignored');

      // A group is read only under its own plugin.
      const elsewhere = await t.call(people.stranger, {
        method: 'GET',
        url: `/api/plugins/${otherPluginId}/exceptions/${groupId}`,
      });
      expect(elsewhere.statusCode).toBe(404);
      expect(
        (await t.call(people.owner, { method: 'GET', url: '/api/plugins/999999/exceptions' })).statusCode,
      ).toBe(404);
    });

    it('describes the routes in the OpenAPI document', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          EXCEPTION_REPORT_PATH,
          '/api/plugins/{id}/exceptions',
          '/api/plugins/{id}/exceptions/{groupId}',
          '/api/plugins/{id}/exceptions/{groupId}/status',
        ]),
      );
    });
  });
});
