import type { FeatureFlagChange, NewFeatureFlag } from '@marketplace/api-contract';
import {
  checkFeatureValue,
  FEATURE_TYPES,
  featureNameProblem,
  isFeatureType,
  type FeatureType,
} from '@marketplace/core';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { featureFlags, users, vendors } from '../../db/schema';
import { ApiError } from '../../plugins/app/errors';
import { recordAdminAudit } from '../audit';
import { loadStoredFlags, type StoredFlag } from './service';

function typeOf(raw: unknown): FeatureType {
  if (isFeatureType(raw)) return raw;
  throw new ApiError(
    'badRequest',
    `A flag’s type is one of ${FEATURE_TYPES.join(', ')}; "${String(raw).slice(0, 40)}" is not.`,
  );
}

/** Checks a value against the type and turns logins or vendor names into ids; 400 naming what is wrong. */
async function storedValueOf(
  db: Queryable,
  type: FeatureType,
  raw: unknown,
): Promise<boolean | number | number[]> {
  if (raw === undefined) throw new ApiError('badRequest', `A ${type} flag needs a value.`);
  const checked = checkFeatureValue(type, raw);
  if (!checked.ok) throw new ApiError('badRequest', checked.message);
  const value = checked.value;
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return [];
  if (type === 'users') {
    const found = await db
      .select({ id: users.id, login: users.login })
      .from(users)
      .where(inArray(users.login, value));
    const byLogin = new Map(found.map((row) => [row.login, row.id]));
    const unknown = value.filter((login) => !byLogin.has(login));
    if (unknown.length > 0) {
      throw new ApiError('badRequest', `No user has the login ${unknown.map((x) => `"${x}"`).join(', ')}.`);
    }
    return value.map((login) => byLogin.get(login)!);
  }
  const found = await db
    .select({ id: vendors.id, name: vendors.name })
    .from(vendors)
    .where(inArray(vendors.name, value));
  const byName = new Map(found.map((row) => [row.name, row.id]));
  const unknown = value.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new ApiError('badRequest', `There is no vendor named ${unknown.map((x) => `"${x}"`).join(', ')}.`);
  }
  return value.map((name) => byName.get(name)!);
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function storedFlag(db: Queryable, name: string): Promise<StoredFlag> {
  const flag = (await loadStoredFlags(db)).find((candidate) => candidate.name === name);
  if (!flag) throw new ApiError('notFound', `There is no flag named "${name.slice(0, 80)}".`);
  return flag;
}

export async function findFlag(db: Queryable, name: string): Promise<StoredFlag> {
  return storedFlag(db, name);
}

const taken = (name: string) => new ApiError('badRequest', `A flag named "${name}" exists already.`);

/** Creates a flag and writes the audit entry, in one transaction; 400 for anything wrong. */
export async function createFlag(
  db: Database,
  input: NewFeatureFlag,
  actorId: number | null,
): Promise<StoredFlag> {
  const name = input.name.trim();
  const problem = featureNameProblem(name);
  if (problem) throw new ApiError('badRequest', problem);
  const type = typeOf(input.type);
  try {
    await db.transaction(async (tx) => {
      const value = await storedValueOf(tx, type, input.value);
      const [existing] = await tx
        .select({ id: featureFlags.id })
        .from(featureFlags)
        .where(eq(featureFlags.name, name));
      if (existing) throw taken(name);
      await tx.insert(featureFlags).values({
        name,
        type,
        description: input.description?.trim() ?? '',
        value,
        updatedBy: actorId,
      });
      await recordAdminAudit(tx, {
        actorId,
        action: 'feature.create',
        subject: `feature:${name}`,
        ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}),
        details: { type, value: input.value },
      });
    });
  } catch (error) {
    // Two administrators creating the same name at once: the second meets the unique index.
    if (isUniqueViolation(error)) throw taken(name);
    throw error;
  }
  return storedFlag(db, name);
}

/**
 * Changes a flag's type, value or description. A new type or value starts counting its usage again (the
 * statistic is about the flag as it is); a description alone does not.
 */
export async function changeFlag(
  db: Database,
  name: string,
  change: FeatureFlagChange,
  actorId: number | null,
): Promise<StoredFlag> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(featureFlags).where(eq(featureFlags.name, name)).for('update');
    if (!row) throw new ApiError('notFound', `There is no flag named "${name.slice(0, 80)}".`);
    const type = change.type === undefined ? row.type : typeOf(change.type);
    if (type !== row.type && change.value === undefined) {
      throw new ApiError('badRequest', `A flag that becomes a ${type} flag needs a value of that type.`);
    }
    const value = change.value === undefined ? row.value : await storedValueOf(tx, type, change.value);
    const ruleChanged = type !== row.type || JSON.stringify(value) !== JSON.stringify(row.value);
    await tx
      .update(featureFlags)
      .set({
        type,
        value,
        description: change.description === undefined ? row.description : change.description.trim(),
        updatedAt: sql`now()`,
        updatedBy: actorId,
        ...(ruleChanged
          ? { evaluations: 0, evaluationsOn: 0, countedSince: sql`now()`, lastEvaluatedAt: null }
          : {}),
      })
      .where(eq(featureFlags.id, row.id));
    await recordAdminAudit(tx, {
      actorId,
      action: 'feature.update',
      subject: `feature:${name}`,
      ...(change.reason?.trim() ? { reason: change.reason.trim() } : {}),
      details: {
        before: { type: row.type, value: row.value, description: row.description },
        after: { type, value, description: change.description ?? row.description },
      },
    });
  });
  return storedFlag(db, name);
}

export async function deleteFlag(
  db: Database,
  name: string,
  reason: string | undefined,
  actorId: number | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(featureFlags).where(eq(featureFlags.name, name)).returning();
    if (!row) throw new ApiError('notFound', `There is no flag named "${name.slice(0, 80)}".`);
    await recordAdminAudit(tx, {
      actorId,
      action: 'feature.delete',
      subject: `feature:${name}`,
      ...(reason?.trim() ? { reason: reason.trim() } : {}),
      details: { type: row.type, value: row.value },
    });
  });
}
