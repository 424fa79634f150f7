import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InsightRecorder, rollUpInsight } from '../../src/insight';
import { openCountryLookup } from '../../src/insight/geo';
import type { ClientFacts } from '../../src/insight/recorder';
import { selectRows } from '../../src/search/sql';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * The roll-up job on its own: whole days recomputed from raw events (so reruns and late events change
 * nothing that was right), salts forgotten once their day is over, raw months in partitions of their own,
 * and old months dropped while their roll-ups stay.
 */

const at = (text: string) => new Date(text);

describe.each(DATABASE_KINDS)('the statistics roll-up on %s', (kind) => {
  let testDatabase: TestDatabase;
  let recorder: InsightRecorder;
  const db = () => testDatabase.database.db;

  const facts = (address: string, agent = 'IntelliJ IDEA/241.1', build = 'IU-241.1') =>
    recorder.describe({ ip: address, userAgent: agent, buildParameter: build }, new Date());
  const download = async (client: ClientFacts, when: Date, version = '1.0', pluginId = 1) =>
    recorder.recordDownload(db(), client, { pluginId, version, channel: '' }, when);
  const totals = async (day: string) =>
    selectRows<{ plugin_id: number; downloads: number; downloads_unique: number; update_checks: number }>(
      db(),
      sql`SELECT plugin_id, downloads, downloads_unique, update_checks FROM insight_daily_by_dimension
        WHERE dimension = 'total' AND day = ${day} ORDER BY plugin_id`,
    );

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
    recorder = new InsightRecorder(db(), await openCountryLookup());
  });
  afterAll(async () => testDatabase?.dispose());

  it('counts a day from its events, and a rerun or a late event gives the right day again', async () => {
    const one = await facts('81.2.69.160');
    const two = await facts('8.8.8.8');
    await download(one, at('2026-03-10T08:00:00Z'));
    await download(one, at('2026-03-10T09:00:00Z'));
    await download(two, at('2026-03-10T23:59:59Z'));
    await recorder.recordUpdateChecks(two, [1, 2], at('2026-03-10T12:00:00Z'));
    await db().execute(sql`UPDATE insight_rollup_state SET rolled_up_until = '2026-03-10T00:00:00Z'`);
    const first = await rollUpInsight(db(), { now: at('2026-03-11T00:30:00Z') });
    expect(first.days).toEqual(['2026-03-09', '2026-03-10', '2026-03-11']);
    const expected = [
      { plugin_id: 1, downloads: 3, downloads_unique: 2, update_checks: 1 },
      { plugin_id: 2, downloads: 0, downloads_unique: 0, update_checks: 1 },
    ];
    expect(await totals('2026-03-10')).toEqual(expected);

    // The same run again changes nothing; an event of the day that lands late is counted by the next run.
    await rollUpInsight(db(), { now: at('2026-03-11T00:30:00Z') });
    expect(await totals('2026-03-10')).toEqual(expected);
    await download(two, at('2026-03-10T23:59:59.500Z'));
    const next = await rollUpInsight(db(), { now: at('2026-03-11T00:40:00Z') });
    expect(next.days).toEqual(['2026-03-10', '2026-03-11']);
    expect((await totals('2026-03-10'))[0]).toMatchObject({ downloads: 4, downloads_unique: 2 });
  });

  it('adds each dimension up to the day’s totals', async () => {
    const [sums] = await selectRows<{ mismatches: number }>(
      db(),
      sql`SELECT count(*)::int AS mismatches FROM (
          SELECT d.plugin_id, d.day, d.dimension, sum(d.downloads) AS downloads, sum(d.update_checks) AS checks
          FROM insight_daily_by_dimension d WHERE d.dimension <> 'total' GROUP BY 1, 2, 3) per_dimension
        JOIN insight_daily_by_dimension total ON total.dimension = 'total'
          AND total.plugin_id = per_dimension.plugin_id AND total.day = per_dimension.day
        WHERE total.downloads <> per_dimension.downloads OR total.update_checks <> per_dimension.checks`,
    );
    expect(sums!.mismatches).toBe(0);
    const [combined] = await selectRows<{ downloads: number }>(
      db(),
      sql`SELECT sum(downloads)::int AS downloads FROM insight_daily WHERE day = '2026-03-10'`,
    );
    expect(combined!.downloads).toBe(4);
  });

  it('forgets each day’s salt once the day is over', async () => {
    await facts('81.2.69.160');
    const today = new Date().toISOString().slice(0, 10);
    const before = await selectRows<{ day: string }>(db(), sql`SELECT day::text AS day FROM insight_salts`);
    expect(before.map((row) => row.day)).toContain(today);
    await rollUpInsight(db(), { now: new Date(Date.now() + 86_400_000) });
    const after = await selectRows<{ day: string }>(db(), sql`SELECT day::text AS day FROM insight_salts`);
    expect(after.map((row) => row.day)).not.toContain(today);
  });

  it('keeps each month of events in its own partition, moving early arrivals out of the default one', async () => {
    const client = await facts('8.8.8.8');
    await download(client, at('2031-05-04T10:00:00Z'), '9.0', 7);
    const inDefault = await selectRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM insight_events_default`,
    );
    expect(inDefault[0]!.n).toBe(1);
    await rollUpInsight(db(), { now: at('2031-05-04T12:00:00Z') });
    const moved = await selectRows<{ n: number }>(
      db(),
      sql`SELECT (SELECT count(*) FROM insight_events_2031_05)::int AS n`,
    );
    expect(moved[0]!.n).toBe(1);
    expect(
      (await selectRows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM insight_events_default`))[0]!
        .n,
    ).toBe(0);
    expect((await totals('2031-05-04'))[0]).toMatchObject({ plugin_id: 7, downloads: 1 });
  });

  it('drops months of raw events past the retention, keeping their roll-ups', async () => {
    const result = await rollUpInsight(db(), { now: at('2031-05-04T12:00:00Z'), keepMonths: 2 });
    expect(result.droppedPartitions).toContain('insight_events_2026_03');
    expect(result.droppedPartitions).not.toContain('insight_events_2031_03');
    const partitions = await selectRows<{ name: string }>(
      db(),
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'insight_events'::regclass ORDER BY 1`,
    );
    expect(partitions.map((row) => row.name)).not.toContain('insight_events_2026_03');
    expect((await totals('2026-03-10'))[0]).toMatchObject({ downloads: 4 });
  });
});
