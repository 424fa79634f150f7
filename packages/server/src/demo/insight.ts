import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';

/*
 * The demo's statistics: the daily roll-ups an analytics tab reads, made from the demo's own daily download
 * counts so that every chart agrees with the public numbers. Each day's downloads of a version are shared
 * among six imagined clients (40/20/15/10/10/5 percent) whose IDE, build branch and country follow from a
 * hash of (item, day, version, share), so the same seed gives the same figures: a believable mix where most
 * downloads come from IDEs (IntelliJ IDEA first) and a few from browsers, branches follow the IDE releases
 * of the day (most on the newest), and countries lean to the spec's featured ones. About one download in
 * seven repeats someone's that day; each install brings one to five update checks. Days before `today`
 * only: today belongs to the roll-up job and the running server's real events.
 */

/** Release days of IDE branches, newest last: what an IDE of a given day most likely runs. */
const BRANCH_RELEASES = [
  ['2024-04-04', 241],
  ['2024-08-07', 242],
  ['2024-11-13', 243],
  ['2025-04-16', 251],
  ['2025-07-29', 252],
  ['2025-12-08', 253],
  ['2026-04-09', 261],
  ['2026-08-05', 262],
] as const;

/** Weights in percent of products (empty: a browser) and of countries (the last bucket takes the rest). */
const PRODUCTS = [
  ['IU', 38],
  ['IC', 22],
  ['PY', 9],
  ['WS', 6],
  ['GO', 5],
  ['PS', 4],
  ['AI', 4],
  ['RD', 3],
  ['CL', 2],
  ['RR', 1],
  ['', 6],
] as const;
const COUNTRIES = [
  ['US', 21],
  ['CN', 11],
  ['DE', 9],
  ['IN', 8],
  ['GB', 5],
  ['FR', 5],
  ['BR', 4],
  ['JP', 4],
  ['RU', 3],
  ['KR', 3],
  ['CA', 3],
  ['NL', 2],
  ['PL', 2],
  ['ES', 2],
  ['IT', 2],
  ['UA', 2],
  ['CH', 2],
  ['IL', 2],
  ['SE', 1],
  ['CZ', 1],
  ['TR', 1],
  ['AU', 1],
  ['VN', 1],
  ['ID', 1],
  ['', 4],
] as const;

/** A CASE picking an entry by `bucket` (0-99) from cumulative percentage weights. */
function weighted(bucket: string, entries: readonly (readonly [string, number])[]) {
  let cumulative = 0;
  const arms = entries.slice(0, -1).map(([value, weight]) => {
    cumulative += weight;
    return `WHEN ${bucket} < ${cumulative} THEN '${value}'`;
  });
  return `CASE ${arms.join(' ')} ELSE '${entries.at(-1)![0]}' END`;
}

/** The newest branch released on or before `day`, or the one or two before it (60/30/10 by `bucket`). */
function branchOf(day: string, bucket: string) {
  const newest = `CASE ${BRANCH_RELEASES.map(([date], index) => `WHEN ${day} >= '${date}' THEN ${index + 1}`)
    .reverse()
    .join(' ')} ELSE 1 END`;
  const older = `CASE WHEN ${bucket} < 60 THEN 0 WHEN ${bucket} < 90 THEN 1 ELSE 2 END`;
  return `(ARRAY[${BRANCH_RELEASES.map(([, branch]) => branch).join(', ')}])[greatest(1, ${newest} - ${older})]`;
}

/** How a day's downloads of one version are shared among the imagined clients, in percent (first takes the rest). */
const SHARES = [40, 20, 15, 10, 10, 5] as const;

/** Writes the demo's roll-ups from download_counts (call after every counter is inserted). */
export async function writeDemoInsight(tx: Queryable, today: Date): Promise<void> {
  const before = today.toISOString().slice(0, 10);
  const shares = `ARRAY[${SHARES.join(', ')}]`;
  // The first client takes what the others' whole shares leave, so the shares add up to the day's count.
  const others = SHARES.slice(1)
    .map((share) => `dc.count * ${share} / 100`)
    .join(' + ');
  await tx.execute(
    sql.raw(`
    CREATE TEMPORARY TABLE demo_insight_rows ON COMMIT DROP AS
    SELECT plugin_id, day, version, channel, product_code, country,
      CASE WHEN product_code = '' THEN 0 ELSE ${branchOf('day', 'abs(h / 10000) % 100')} END AS branch,
      downloads, downloads - downloads / 7 AS downloads_unique,
      CASE WHEN product_code = '' THEN 0 ELSE downloads END AS installs,
      CASE WHEN product_code = '' THEN 0 ELSE downloads * (1 + abs(h / 1000000) % 5) END AS update_checks
    FROM (
      SELECT dc.plugin_id, dc.day, pv.version, pv.channel, e.h,
        ${weighted('abs(e.h) % 100', PRODUCTS)} AS product_code,
        ${weighted('abs(e.h / 100) % 100', COUNTRIES)} AS country,
        CASE WHEN slot = 1 THEN dc.count - (${others}) ELSE dc.count * (${shares})[slot] / 100 END
          AS downloads
      FROM download_counts dc
      JOIN plugin_versions pv ON pv.id = dc.version_id
      CROSS JOIN generate_series(1, ${SHARES.length}) AS slot
      CROSS JOIN LATERAL (SELECT hashtext(dc.plugin_id || ':' || dc.day || ':' || dc.version_id || ':' || slot) AS h) e
      WHERE dc.day < '${before}'
    ) shared
    WHERE downloads > 0`),
  );
  await tx.execute(
    sql.raw(`
    INSERT INTO insight_daily (plugin_id, day, version, channel, product_code, branch, country, downloads,
      downloads_unique, installs, update_checks)
    SELECT plugin_id, day, version, channel, product_code, branch, country,
      sum(downloads), sum(downloads_unique), sum(installs), sum(update_checks)
    FROM demo_insight_rows GROUP BY plugin_id, day, version, channel, product_code, branch, country`),
  );
  await tx.execute(
    sql.raw(`
    INSERT INTO insight_daily_by_dimension (plugin_id, dimension, day, value, downloads, downloads_unique,
      installs, update_checks)
    SELECT plugin_id,
      CASE WHEN GROUPING(version) = 0 THEN 'version' WHEN GROUPING(product_code) = 0 THEN 'product'
        WHEN GROUPING(branch) = 0 THEN 'branch' WHEN GROUPING(country) = 0 THEN 'country'
        WHEN GROUPING(channel) = 0 THEN 'channel' ELSE 'total' END,
      day,
      coalesce(version, product_code, CASE WHEN branch > 0 THEN branch::text WHEN branch = 0 THEN '' END,
        country, channel, ''),
      sum(downloads), sum(downloads_unique), sum(installs), sum(update_checks)
    FROM demo_insight_rows
    GROUP BY GROUPING SETS ((plugin_id, day), (plugin_id, day, version), (plugin_id, day, product_code),
      (plugin_id, day, branch), (plugin_id, day, country), (plugin_id, day, channel))`),
  );
  await tx.execute(sql`UPDATE insight_rollup_state SET rolled_up_until = ${new Date(`${before}T00:00:00Z`)}`);
}
