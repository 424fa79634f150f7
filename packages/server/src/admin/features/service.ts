import type { FeatureFlag, FeatureUsage } from '@marketplace/api-contract';
import { evaluateFeature, type FeatureRule, type FeatureSubject, type FeatureType } from '@marketplace/core';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/authorization';
import type { Database, Queryable } from '../../db/client';
import { featureFlags, users, vendors } from '../../db/schema';
import { selectRows } from '../../search/sql';

/** A flag as kept, with its rule ready for evaluation. */
export interface StoredFlag {
  id: number;
  name: string;
  type: FeatureType;
  description: string;
  rule: FeatureRule;
  /** The stored value: a boolean, a percentage, or user / vendor ids. */
  value: boolean | number | number[];
  countedSince: Date;
  createdAt: Date;
  updatedAt: Date;
  updatedBy: string | null;
}

export function ruleOf(type: FeatureType, value: unknown): FeatureRule {
  switch (type) {
    case 'boolean':
      return { type, enabled: value === true };
    case 'percentage':
      return { type, percent: typeof value === 'number' ? value : 0 };
    case 'users':
      return { type, userIds: Array.isArray(value) ? value.map(Number) : [] };
    case 'vendors':
      return { type, vendorIds: Array.isArray(value) ? value.map(Number) : [] };
    default:
      return type satisfies never;
  }
}

export interface FeatureFlagsOptions {
  /** How long the flags read from the database are used before reading again (other nodes' changes). */
  cacheMs?: number;
  /** How often this process adds its usage counters to the database (0: only on read and on close). */
  flushMs?: number;
}

interface Counter {
  since: Date;
  evaluations: number;
  on: number;
  last: Date;
}

/**
 * The flags as the server reads them: `isOn(name, viewer)` for code, `allFor` for the site's `mine`. Flags
 * are read from the database at most every few seconds (a change through this process is seen at once);
 * every evaluation adds to an in-process counter, and counters are added to the flag's row now and then, on a
 * statistic read and on close, so counting costs no write per evaluation.
 */
export class FeatureFlags {
  private readonly cacheMs: number;
  private loaded: { at: number; flags: Promise<Map<string, StoredFlag>> } | undefined;
  private readonly counters = new Map<number, Counter>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    options: FeatureFlagsOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? 5000;
  }

  /** Every flag by name. */
  flags(): Promise<Map<string, StoredFlag>> {
    const now = Date.now();
    if (!this.loaded || now - this.loaded.at > this.cacheMs) {
      const flags = loadStoredFlags(this.db).then((list) => new Map(list.map((flag) => [flag.name, flag])));
      // A failed read is not kept: the next evaluation tries again.
      flags.catch(() => {
        if (this.loaded?.flags === flags) this.loaded = undefined;
      });
      this.loaded = { at: now, flags };
    }
    return this.loaded.flags;
  }

  /** Forgets the flags read, after a change through this process. */
  invalidate(): void {
    this.loaded = undefined;
  }

  /** Whether a flag is on for the viewer (a browser id makes percentages sticky for guests); unknown: off. */
  async isOn(name: string, viewer: Viewer, browserId?: string): Promise<boolean> {
    const flag = (await this.flags()).get(name);
    if (!flag) return false;
    const subject = await this.subjectOf(viewer, browserId, flag.type === 'vendors');
    return this.evaluate(flag, subject);
  }

  /** Every flag, on or off for the viewer. */
  async allFor(viewer: Viewer, browserId?: string): Promise<Record<string, boolean>> {
    const flags = [...(await this.flags()).values()];
    const subject = await this.subjectOf(
      viewer,
      browserId,
      flags.some((flag) => flag.type === 'vendors'),
    );
    const answer: Record<string, boolean> = {};
    for (const flag of flags) answer[flag.name] = this.evaluate(flag, subject);
    return answer;
  }

  /** Adds this process's counters to the flags' rows (those of a flag changed since are dropped). */
  flush(): Promise<void> {
    // One flush at a time; a flush asked for during one runs after it.
    const run = async (): Promise<void> => {
      if (this.counters.size === 0) return;
      const entries = [...this.counters.entries()];
      this.counters.clear();
      const rows = sql.join(
        entries.map(
          ([id, counter]) =>
            sql`(${id}::integer, ${counter.since.toISOString()}::timestamptz, ${counter.evaluations}::bigint, ${counter.on}::bigint, ${counter.last.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      try {
        await this.db.execute(sql`UPDATE feature_flags f
          SET evaluations = f.evaluations + v.evaluations, evaluations_on = f.evaluations_on + v.turned_on,
            last_evaluated_at = GREATEST(coalesce(f.last_evaluated_at, v.last), v.last)
          FROM (VALUES ${rows}) AS v(id, since, evaluations, turned_on, last)
          WHERE f.id = v.id AND date_trunc('milliseconds', f.counted_since) = v.since`);
      } catch (error) {
        // Kept for the next flush rather than lost.
        for (const [id, counter] of entries) this.add(id, counter);
        throw error;
      }
    };
    const next = (this.flushing ?? Promise.resolve()).catch(() => undefined).then(run);
    this.flushing = next.finally(() => {
      if (this.flushing === next) this.flushing = undefined;
    });
    return next;
  }

  private evaluate(flag: StoredFlag, subject: FeatureSubject): boolean {
    const on = evaluateFeature(flag.name, flag.rule, subject);
    this.add(flag.id, { since: flag.countedSince, evaluations: 1, on: on ? 1 : 0, last: new Date() });
    return on;
  }

  private add(id: number, counter: Counter): void {
    const current = this.counters.get(id);
    if (!current || current.since.getTime() !== counter.since.getTime()) {
      this.counters.set(id, { ...counter });
      return;
    }
    current.evaluations += counter.evaluations;
    current.on += counter.on;
    if (counter.last > current.last) current.last = counter.last;
  }

  private async subjectOf(
    viewer: Viewer,
    browserId: string | undefined,
    needsVendors: boolean,
  ): Promise<FeatureSubject> {
    if (viewer.kind !== 'user') return { browserId };
    const userId = viewer.user.id;
    return {
      userId,
      browserId,
      vendorIds: needsVendors ? await vendorsOfUser(this.db, userId) : undefined,
    };
  }
}

/** The vendors a user acts for: those of the items they own or develop (deleted items aside). */
export async function vendorsOfUser(db: Queryable, userId: number): Promise<number[]> {
  const rows = await selectRows<{ vendor_id: number }>(
    db,
    sql`SELECT DISTINCT p.vendor_id FROM plugins p
      WHERE p.vendor_id IS NOT NULL AND p.lifecycle_state <> 'deleted'
        AND (p.owner_id = ${userId}
          OR EXISTS (SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${userId}))`,
  );
  return rows.map((row) => Number(row.vendor_id));
}

/** Every flag as kept, by name. */
export async function loadStoredFlags(db: Queryable): Promise<StoredFlag[]> {
  const rows = await db
    .select({
      id: featureFlags.id,
      name: featureFlags.name,
      type: featureFlags.type,
      description: featureFlags.description,
      value: featureFlags.value,
      countedSince: featureFlags.countedSince,
      createdAt: featureFlags.createdAt,
      updatedAt: featureFlags.updatedAt,
      updatedBy: users.login,
    })
    .from(featureFlags)
    .leftJoin(users, eq(users.id, featureFlags.updatedBy))
    .orderBy(asc(featureFlags.name));
  return rows.map((row) => ({ ...row, rule: ruleOf(row.type, row.value) }));
}

/** Flags as the API shows them: list members by login or vendor name instead of id. */
export async function presentFlags(db: Queryable, flags: readonly StoredFlag[]): Promise<FeatureFlag[]> {
  const userIds = new Set<number>();
  const vendorIds = new Set<number>();
  for (const flag of flags) {
    if (flag.rule.type === 'users') for (const id of flag.rule.userIds) userIds.add(id);
    if (flag.rule.type === 'vendors') for (const id of flag.rule.vendorIds) vendorIds.add(id);
  }
  const logins = new Map(
    userIds.size === 0
      ? []
      : (
          await db
            .select({ id: users.id, login: users.login })
            .from(users)
            .where(inArray(users.id, [...userIds]))
        ).map((row) => [row.id, row.login]),
  );
  const vendorNames = new Map(
    vendorIds.size === 0
      ? []
      : (
          await db
            .select({ id: vendors.id, name: vendors.name })
            .from(vendors)
            .where(inArray(vendors.id, [...vendorIds]))
        ).map((row) => [row.id, row.name]),
  );
  return flags.map((flag) => {
    const rule = flag.rule;
    let value: boolean | number | string[];
    if (rule.type === 'boolean') value = rule.enabled;
    else if (rule.type === 'percentage') value = rule.percent;
    else if (rule.type === 'users') value = rule.userIds.flatMap((id) => logins.get(id) ?? []);
    else value = rule.vendorIds.flatMap((id) => vendorNames.get(id) ?? []);
    return {
      name: flag.name,
      type: flag.type,
      description: flag.description,
      value,
      createdAt: flag.createdAt.getTime(),
      updatedAt: flag.updatedAt.getTime(),
      updatedBy: flag.updatedBy,
    };
  });
}

export async function presentFlag(db: Queryable, flag: StoredFlag): Promise<FeatureFlag> {
  const [shown] = await presentFlags(db, [flag]);
  if (!shown) throw new Error(`The flag ${flag.name} could not be shown.`);
  return shown;
}

/** Each flag's usage since it was last changed, from the rows (flush the counters first). */
export async function loadUsage(db: Queryable): Promise<FeatureUsage[]> {
  const rows = await db
    .select({
      name: featureFlags.name,
      type: featureFlags.type,
      evaluations: featureFlags.evaluations,
      on: featureFlags.evaluationsOn,
      countedSince: featureFlags.countedSince,
      lastEvaluatedAt: featureFlags.lastEvaluatedAt,
    })
    .from(featureFlags)
    .orderBy(asc(featureFlags.name));
  return rows.map((row) => {
    const evaluations = Number(row.evaluations);
    const on = Number(row.on);
    return {
      name: row.name,
      type: row.type,
      evaluations,
      on,
      off: evaluations - on,
      onPercent: evaluations === 0 ? null : Math.round((on / evaluations) * 1000) / 10,
      countedSince: row.countedSince.getTime(),
      lastEvaluatedAt: row.lastEvaluatedAt ? row.lastEvaluatedAt.getTime() : null,
    };
  });
}
