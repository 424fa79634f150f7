import { DAY_MS, formatStatisticsDate } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { selectRows } from '../search/sql';

/**
 * The roll-up job: counts each day's events into the daily roll-up tables that statistics read. A day is
 * always recomputed whole from its events (delete, then insert in one transaction), so running it twice, on
 * two nodes at once, or after a crash, gives the same rows. It starts an hour before the last run to pick
 * up events whose transactions were still open then.
 */

/** Any fixed number: roll-ups of the same day on two nodes take turns. */
const ROLLUP_LOCK_KEY = 7_214_530_051;
/** Events written by transactions open when the last run read are at most this old when they land. */
const LATE_EVENT_MARGIN_MS = 60 * 60 * 1000;

export interface RollupOptions {
  /** The time the run counts up to (tests set it); now by default. */
  now?: Date;
  /** Raw events are kept this many whole months before the current one; older monthly partitions are dropped. */
  keepMonths?: number;
}

export interface RollupResult {
  /** The days recomputed, yyyy-MM-dd. */
  days: string[];
  /** Every event before this time is in the roll-ups. */
  rolledUpUntil: Date;
  /** Partitions of raw events dropped as older than the retention. */
  droppedPartitions: string[];
}

function dayBounds(day: string) {
  const start = new Date(`${day}T00:00:00Z`);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/**
 * Recomputes one day of both roll-up tables from the raw events, in one transaction. A day without any raw
 * event is left as it is: its roll-ups, if any, were imported (the demo's, another system's history).
 */
export async function rollUpDay(db: Database, day: string): Promise<void> {
  const { start, end } = dayBounds(day);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK_KEY})`);
    const [any] = await selectRows<{ found: number }>(
      tx,
      sql`SELECT 1 AS found FROM insight_events WHERE occurred_at >= ${start} AND occurred_at < ${end} LIMIT 1`,
    );
    if (!any) return;
    await tx.execute(sql`DELETE FROM insight_daily WHERE day = ${day}`);
    await tx.execute(sql`INSERT INTO insight_daily (plugin_id, day, version, channel, product_code, branch,
        country, downloads, downloads_unique, installs, update_checks)
      SELECT plugin_id, ${day}::date, version, channel, product_code, branch, country,
        count(*) FILTER (WHERE kind = 'download'),
        count(DISTINCT visitor) FILTER (WHERE kind = 'download'),
        count(*) FILTER (WHERE kind = 'download' AND from_ide),
        count(*) FILTER (WHERE kind = 'update-check')
      FROM insight_events WHERE occurred_at >= ${start} AND occurred_at < ${end}
      GROUP BY plugin_id, version, channel, product_code, branch, country`);
    await tx.execute(sql`DELETE FROM insight_daily_by_dimension WHERE day = ${day}`);
    // One pass over the day's events gives the totals and each dimension alone, with exact unique counts.
    await tx.execute(sql`INSERT INTO insight_daily_by_dimension (plugin_id, dimension, day, value, downloads,
        downloads_unique, installs, update_checks)
      SELECT plugin_id,
        CASE
          WHEN GROUPING(version) = 0 THEN 'version'
          WHEN GROUPING(product_code) = 0 THEN 'product'
          WHEN GROUPING(branch) = 0 THEN 'branch'
          WHEN GROUPING(country) = 0 THEN 'country'
          WHEN GROUPING(channel) = 0 THEN 'channel'
          ELSE 'total'
        END,
        ${day}::date,
        coalesce(version, product_code, CASE WHEN branch > 0 THEN branch::text WHEN branch = 0 THEN '' END,
          country, channel, ''),
        count(*) FILTER (WHERE kind = 'download'),
        count(DISTINCT visitor) FILTER (WHERE kind = 'download'),
        count(*) FILTER (WHERE kind = 'download' AND from_ide),
        count(*) FILTER (WHERE kind = 'update-check')
      FROM insight_events WHERE occurred_at >= ${start} AND occurred_at < ${end}
      GROUP BY GROUPING SETS ((plugin_id), (plugin_id, version), (plugin_id, product_code),
        (plugin_id, branch), (plugin_id, country), (plugin_id, channel))`);
  });
}

/** Makes sure the raw events of this month and the next have their own partitions. */
export async function preparePartitions(db: Queryable, now: Date): Promise<void> {
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  await db.execute(sql`SELECT insight_events_partition(${formatStatisticsDate(now)}::date)`);
  await db.execute(sql`SELECT insight_events_partition(${formatStatisticsDate(nextMonth)}::date)`);
}

/** Drops monthly partitions of raw events older than `keepMonths` whole months (their days are rolled up). */
async function dropOldPartitions(db: Queryable, now: Date, keepMonths: number): Promise<string[]> {
  const oldestKept = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - keepMonths, 1));
  const oldestName = `insight_events_${formatStatisticsDate(oldestKept).slice(0, 7).replace('-', '_')}`;
  const partitions = await selectRows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'insight_events'::regclass AND c.relname ~ '^insight_events_[0-9]{4}_[0-9]{2}$'`,
  );
  const dropped: string[] = [];
  for (const { name } of partitions) {
    // The names sort as the months do.
    if (name >= oldestName) continue;
    await db.execute(sql.raw(`DROP TABLE IF EXISTS "${name}"`));
    dropped.push(name);
  }
  return dropped.sort();
}

/** Rolls up every day from shortly before the last run up to now, then tidies partitions and salts. */
export async function rollUpInsight(db: Database, options: RollupOptions = {}): Promise<RollupResult> {
  const now = options.now ?? new Date();
  await preparePartitions(db, now);
  const [state] = await selectRows<{ rolled_up_until: Date | string }>(
    db,
    sql`SELECT rolled_up_until FROM insight_rollup_state`,
  );
  const previous = state ? new Date(state.rolled_up_until) : now;
  const firstDay = formatStatisticsDate(Math.min(previous.getTime(), now.getTime()) - LATE_EVENT_MARGIN_MS);
  const lastDay = formatStatisticsDate(now);
  const days: string[] = [];
  for (
    let time = Date.parse(`${firstDay}T00:00:00Z`);
    time <= Date.parse(`${lastDay}T00:00:00Z`);
    time += DAY_MS
  )
    days.push(formatStatisticsDate(time));
  for (const day of days) await rollUpDay(db, day);
  await db.execute(sql`UPDATE insight_rollup_state SET rolled_up_until = greatest(rolled_up_until, ${now})`);
  // Once a day is over its salt is never needed again; deleting it makes its hashes unlinkable to addresses.
  await db.execute(sql`DELETE FROM insight_salts WHERE day < ${lastDay}::date`);
  const droppedPartitions =
    options.keepMonths === undefined ? [] : await dropOldPartitions(db, now, options.keepMonths);
  return { days, rolledUpUntil: now, droppedPartitions };
}

/** When the roll-ups were last brought up to date. */
export async function rolledUpUntil(db: Queryable): Promise<Date | undefined> {
  const [state] = await selectRows<{ rolled_up_until: Date | string }>(
    db,
    sql`SELECT rolled_up_until FROM insight_rollup_state`,
  );
  return state ? new Date(state.rolled_up_until) : undefined;
}
