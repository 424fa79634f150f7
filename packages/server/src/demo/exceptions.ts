import { comparePluginVersions, DAY_MS, EXCEPTION_RETENTION, normaliseStackTrace } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { fingerprintOf } from '../insight/exceptions/repository';
import { selectRows } from '../search/sql';
import { DEMO_ACCOUNTS } from './generate';
import { DemoRandom } from './random';

/*
 * The demo's exception analyzer: error reports of the demo developer's first IDE plugin, as its users' IDEs
 * would have sent them over the last six weeks. Three defects: one new and frequent, one being investigated,
 * one fixed in the newest version (all its reports come from older ones, so it stays fixed). Grouped exactly
 * as live reports are (core's normaliseStackTrace), so a report sent to the running server joins its group.
 * Deterministic: every value comes from DemoRandom and days count back from `today`.
 */

const HISTORY_DAYS = 42;
const KEPT_REPORTS = 6;

const BUILDS = [
  ['IU-243.26053.27', 'IntelliJ IDEA 2024.3'],
  ['IU-251.23774.435', 'IntelliJ IDEA 2025.1'],
  ['IC-251.23774.435', 'IntelliJ IDEA Community Edition 2025.1'],
  ['PY-251.23774.444', 'PyCharm 2025.1'],
  ['WS-251.23774.424', 'WebStorm 2025.1'],
] as const;
const SYSTEMS = [
  'Windows 11 10.0 (X86_64)',
  'macOS 15.3.1 (aarch64)',
  'Linux 6.8.0-52-generic (X86_64)',
] as const;
const JAVAS = ['21.0.5+8-b631.30 (JetBrains s.r.o.)', '21.0.6+7-b895.91 (JetBrains s.r.o.)'] as const;
const COMMENTS = [
  'Happened right after I opened the tool window.',
  'I was switching branches while indexing was running.',
  'Every time I reopen the project.',
] as const;

interface DemoDefect {
  trace: (pkg: string) => string;
  message: string;
  status: 'new' | 'investigating' | 'fixed';
  /** Reports a day at the busiest. */
  perDay: number;
  lastAction: string;
}

const DEFECTS: readonly DemoDefect[] = [
  {
    message: 'Cannot invoke "com.intellij.openapi.project.Project.getBasePath()" because "project" is null',
    trace: (pkg) =>
      [
        'java.lang.NullPointerException: Cannot invoke "com.intellij.openapi.project.Project.getBasePath()" because "project" is null',
        `\tat ${pkg}.ui.ToolWindowPanel.refresh(ToolWindowPanel.kt:118)`,
        `\tat ${pkg}.ui.ToolWindowPanel.update$lambda$4(ToolWindowPanel.kt:97)`,
        '\tat com.intellij.openapi.application.impl.ApplicationImpl.runIntendedWriteActionOnCurrentThread(ApplicationImpl.java:861)',
        '\tat java.desktop/java.awt.event.InvocationEvent.dispatch(InvocationEvent.java:318)',
        '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
      ].join('\n'),
    status: 'new',
    perDay: 6,
    lastAction: 'ActivateToolWindow',
  },
  {
    message: 'Index 12 out of bounds for length 12',
    trace: (pkg) =>
      [
        'java.lang.IndexOutOfBoundsException: Index 12 out of bounds for length 12',
        '\tat java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)',
        '\tat java.base/java.util.ArrayList.get(ArrayList.java:427)',
        `\tat ${pkg}.parser.Lexer.advance(Lexer.kt:211)`,
        `\tat ${pkg}.parser.Lexer.start(Lexer.kt:58)`,
        '\tat com.intellij.lexer.LexerBase.getTokenType(LexerBase.java:14)',
      ].join('\n'),
    status: 'investigating',
    perDay: 3,
    lastAction: 'EditorEnter',
  },
  {
    message: '',
    trace: (pkg) =>
      [
        'java.util.ConcurrentModificationException',
        '\tat java.base/java.util.HashMap$HashIterator.nextNode(HashMap.java:1605)',
        `\tat ${pkg}.index.CacheUpdater.flush(CacheUpdater.kt:74)`,
        `\tat ${pkg}.index.CacheUpdater$schedule$1.invokeSuspend(CacheUpdater.kt:40)`,
        '\tat kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)',
      ].join('\n'),
    status: 'fixed',
    perDay: 2,
    lastAction: 'Vcs.UpdateProject',
  },
];

/** A Java package from the plugin id: its segments that are Java names (`com.example.tool`). */
function packageOf(xmlId: string): string {
  const segments = xmlId.split('.').filter((segment) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment));
  return segments.length >= 2 ? segments.join('.') : 'com.example.demo';
}

function dayText(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Writes the demo's exception groups; a catalogue without an IDE plugin of the developer gets none. */
export async function writeDemoExceptions(tx: Queryable, today: Date, seed = 1): Promise<number> {
  const [plugin] = await selectRows<{ id: number; xml_id: string }>(
    tx,
    sql`SELECT id, xml_id FROM plugins WHERE owner_id = ${DEMO_ACCOUNTS.developer.id} AND family = 'intellij'
      ORDER BY id LIMIT 1`,
  );
  if (!plugin) return 0;
  const versionRows = await selectRows<{ version: string }>(
    tx,
    sql`SELECT version FROM plugin_versions WHERE plugin_id = ${plugin.id}`,
  );
  const versions = versionRows.map((row) => row.version).sort(comparePluginVersions);
  const newest = versions.at(-1) ?? '1.0.0';
  const recent = versions.slice(-3);
  const older = versions.length > 1 ? versions.slice(-4, -1) : [newest];
  const pkg = packageOf(plugin.xml_id);
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());

  for (const [index, defect] of DEFECTS.entries()) {
    const random = new DemoRandom(seed, 7_051, plugin.id, index);
    const trace = defect.trace(pkg);
    const normalised = normaliseStackTrace(trace, plugin.xml_id);
    if (!normalised) throw new Error('A demo stack trace does not read as one.');
    const fromVersions = defect.status === 'fixed' ? older : recent;

    // Days with reports, oldest first: a defect starts some weeks ago and grows (or fades, once fixed).
    const firstDay = random.int(20, HISTORY_DAYS);
    const days: { day: number; reports: { version: string; build: string; os: string; java: string }[] }[] =
      [];
    for (let ago = firstDay; ago >= 1; ago--) {
      const growth = defect.status === 'fixed' ? ago / firstDay : 1 - ago / (firstDay + 1);
      const count = random.int(0, Math.max(1, Math.round(defect.perDay * growth)));
      if (count === 0) continue;
      days.push({
        day: start - ago * DAY_MS,
        reports: Array.from({ length: count }, () => ({
          version: random.pick(fromVersions),
          build: random.pick(BUILDS)[0],
          os: random.pick(SYSTEMS),
          java: random.pick(JAVAS),
        })),
      });
    }
    const all = days.flatMap((entry) => entry.reports.map((report) => ({ ...report, day: entry.day })));
    const first = days[0];
    const last = days.at(-1);
    if (!first || !last) continue;

    const [group] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO exception_groups (plugin_id, fingerprint, normalised_trace, plugin_package, exception_class,
          message, status, fixed_in_version, status_changed_at, status_changed_by, first_seen_at, last_seen_at,
          report_count, installation_count)
        VALUES (${plugin.id}, ${fingerprintOf(normalised.text)}, ${normalised.text}, ${normalised.pluginPackage},
          ${normalised.exceptionClass}, ${normalised.message}, ${defect.status},
          ${defect.status === 'fixed' ? newest : null},
          ${defect.status === 'new' ? null : new Date(last.day - 2 * DAY_MS).toISOString()}::timestamptz,
          ${defect.status === 'new' ? null : DEMO_ACCOUNTS.developer.id},
          ${new Date(first.day + 9 * 3600_000).toISOString()}::timestamptz,
          ${new Date(last.day + 17 * 3600_000).toISOString()}::timestamptz,
          ${all.length}, ${Math.min(all.length, Math.ceil(all.length * 0.6), EXCEPTION_RETENTION.countedInstallations)})
        RETURNING id`,
    );
    if (!group) throw new Error('The demo exception group was not stored.');

    // The counts a group page shows: per day, and per day and version, build, OS and Java.
    const counts = new Map<string, { dimension: string; day: string; value: string; reports: number }>();
    const count = (dimension: string, day: string, value: string) => {
      const key = `${dimension}\n${day}\n${value}`;
      const entry = counts.get(key) ?? { dimension, day, value, reports: 0 };
      entry.reports += 1;
      counts.set(key, entry);
    };
    for (const report of all) {
      const day = dayText(report.day);
      count('total', day, '');
      count('version', day, report.version);
      count('build', day, report.build);
      count('os', day, report.os);
      count('java', day, report.java);
    }
    await tx.execute(
      sql`INSERT INTO exception_daily (group_id, dimension, day, value, reports) VALUES ${sql.join(
        [...counts.values()].map(
          (entry) =>
            sql`(${group.id}, ${entry.dimension}, ${entry.day}::date, ${entry.value}, ${entry.reports})`,
        ),
        sql`, `,
      )}`,
    );

    // The newest few reports whole, the oldest of them with a user's comment.
    const kept = all.slice(-KEPT_REPORTS);
    for (const [position, report] of kept.entries()) {
      const build = BUILDS.find(([code]) => code === report.build) ?? BUILDS[0];
      await tx.execute(
        sql`INSERT INTO exception_reports (group_id, received_at, plugin_version, build, product_name, os, java,
            message, stack_trace, comment, last_action, attachment_names, automatic)
          VALUES (${group.id}, ${new Date(report.day + (10 + position) * 3600_000).toISOString()}::timestamptz,
            ${report.version}, ${build[0]}, ${build[1]}, ${report.os}, ${report.java}, ${defect.message}, ${trace},
            ${position === 0 ? random.pick(COMMENTS) : ''}, ${defect.lastAction}, ARRAY[]::text[], ${position % 3 === 2})`,
      );
    }
  }
  return DEFECTS.length;
}
