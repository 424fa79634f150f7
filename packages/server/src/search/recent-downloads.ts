import { DAY_MS, statisticsDays, type DownloadStatistics } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { selectRows } from './sql';

/*
 * The downloads of the card's chart (spec §2, §9): one point per UTC day for the last 30 days, ending on the
 * day the answer is made, a day without downloads as 0. The days are worked out when the answer is made and
 * never kept with an item (the search index holds no days): a list answered after midnight ends on the new
 * day. download_counts' primary key (plugin_id, day, version_id) makes each item one index range.
 */

/** Downloads per day of each item, `counts[i]` for `days[i]`, with one query for all the ids. */
async function readCounts(
  db: Queryable,
  ids: readonly number[],
  days: readonly string[],
): Promise<Map<number, Int32Array>> {
  const counts = new Map<number, Int32Array>();
  for (const id of ids) counts.set(id, new Int32Array(days.length));
  const first = days[0];
  const last = days[days.length - 1];
  if (ids.length === 0 || first === undefined || last === undefined) return counts;
  // One row per item (days as offsets from the first), and one array parameter whatever the page size.
  const rows = await selectRows<{ plugin_id: number; offsets: number[]; day_counts: number[] }>(
    db,
    sql`SELECT plugin_id, array_agg(day - ${first}::date) AS offsets, array_agg(value) AS day_counts FROM (
        SELECT plugin_id, day, sum(count)::int AS value FROM download_counts
        WHERE plugin_id = ANY(${`{${ids.join(',')}}`}::int[]) AND day BETWEEN ${first}::date AND ${last}::date
        GROUP BY plugin_id, day) per_day
      GROUP BY plugin_id`,
  );
  for (const row of rows) {
    const perDay = counts.get(row.plugin_id);
    if (!perDay) continue;
    row.offsets.forEach((offset, index) => (perDay[offset] = row.day_counts[index] ?? 0));
  }
  return counts;
}

function toPoints(days: readonly string[], counts: Int32Array | undefined): DownloadStatistics {
  return days.map((name, index) => ({ name, value: counts?.[index] ?? 0 }));
}

interface KeptChart {
  /** The last day of the window the chart covers. */
  lastDay: string;
  /** Shared by the answers that show it: never changed once made. */
  points: DownloadStatistics;
  readAt: number;
}

/**
 * How long a process keeps an item's chart: as long as its search index may lag other processes' writes
 * (CatalogueFollower's look, 1 s), so a chart is never staler than the rest of a search answer. Searches
 * sharing items within it share one read: a search is answered from memory, and a page's read would cost
 * more than the search itself.
 */
export const CHARTS_KEPT_MS = 1000;

/**
 * Attaches the chart to the items of a page, reading the ids it does not hold with one query. It holds each
 * item's chart for `keepMs` ({@link CHARTS_KEPT_MS} in the server), never past the end of the day, whose new
 * window is read afresh. Only a cache: bounded, per process; `keepMs` 0 reads every page.
 */
export class RecentDownloads {
  private readonly kept = new Map<number, KeptChart>();
  /** Items whose chart was kept, and items read (the caches' administration). */
  hits = 0;
  misses = 0;
  /** The window of the current day, worked out once a day. */
  private window: { dayStart: number; days: readonly string[] } = { dayStart: Number.NaN, days: [] };

  constructor(
    private readonly db: Queryable,
    private readonly keepMs: number,
    private readonly maxKept = 5_000,
  ) {}

  async attach<Item extends { id: number }>(
    items: readonly Item[],
    now: number = Date.now(),
  ): Promise<(Item & { downloadStatistics: DownloadStatistics })[]> {
    const days = this.daysOf(now);
    const lastDay = days[days.length - 1] ?? '';
    const charts = new Map<number, DownloadStatistics>();
    const missing = new Set<number>();
    for (const { id } of items) {
      const kept = this.kept.get(id);
      if (kept && kept.lastDay === lastDay && now - kept.readAt < this.keepMs) {
        charts.set(id, kept.points);
        this.hits++;
      } else missing.add(id);
    }
    this.misses += missing.size;
    for (const [id, counts] of await readCounts(this.db, [...missing], days)) {
      const points = toPoints(days, counts);
      charts.set(id, points);
      this.keep(id, { lastDay, points, readAt: now });
    }
    return items.map((item) => ({
      ...item,
      downloadStatistics: charts.get(item.id) ?? toPoints(days, undefined),
    }));
  }

  /** Charts kept, and their approximate bytes (the points' numbers and day strings, and each entry's objects). */
  get statistics(): { entries: number; bytes: number } {
    let bytes = 0;
    for (const chart of this.kept.values()) bytes += 64 + chart.points.length * 48;
    return { entries: this.kept.size, bytes };
  }

  clear(): void {
    this.kept.clear();
  }

  private daysOf(now: number): readonly string[] {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    if (dayStart !== this.window.dayStart) this.window = { dayStart, days: statisticsDays(now) };
    return this.window.days;
  }

  private keep(id: number, chart: KeptChart): void {
    if (this.keepMs <= 0) return;
    this.kept.delete(id);
    // The oldest read goes first (a Map keeps insertion order).
    while (this.kept.size >= this.maxKept) {
      const oldest = this.kept.keys().next();
      if (oldest.done) break;
      this.kept.delete(oldest.value);
    }
    this.kept.set(id, chart);
  }
}
