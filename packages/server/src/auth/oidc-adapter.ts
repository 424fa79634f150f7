import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client';
import { oidcRecords } from '../db/schema/auth';

/** Records removed by the occasional sweep once they have been expired this long. */
const SWEEP_GRACE_MS = 60 * 60 * 1000;
/** One write in this many also sweeps expired records, so the table does not grow without end. */
const SWEEP_EVERY_WRITES = 200;

/**
 * Keeps the embedded provider's sessions, codes, refresh tokens, grants and interactions in the database
 * (not in process memory), so every server process sees them and a restart signs nobody out.
 */
class DatabaseAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly model: string,
    private readonly onWrite: () => Promise<void>,
  ) {}

  private live() {
    return or(isNull(oidcRecords.expiresAt), gt(oidcRecords.expiresAt, sql`now()`));
  }

  private withConsumed(row: typeof oidcRecords.$inferSelect | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    const values = {
      model: this.model,
      id,
      payload: payload as Record<string, unknown>,
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt,
    };
    await this.db
      .insert(oidcRecords)
      .values(values)
      .onConflictDoUpdate({
        target: [oidcRecords.model, oidcRecords.id],
        set: { ...values, consumedAt: null },
      });
    await this.onWrite();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcRecords)
      .where(and(eq(oidcRecords.model, this.model), eq(oidcRecords.id, id), this.live()))
      .limit(1);
    return this.withConsumed(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcRecords)
      .where(and(eq(oidcRecords.model, this.model), eq(oidcRecords.uid, uid), this.live()))
      .limit(1);
    return this.withConsumed(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcRecords)
      .where(and(eq(oidcRecords.model, this.model), eq(oidcRecords.userCode, userCode), this.live()))
      .limit(1);
    return this.withConsumed(row);
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcRecords)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(oidcRecords.model, this.model), eq(oidcRecords.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oidcRecords).where(and(eq(oidcRecords.model, this.model), eq(oidcRecords.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // Every record of the grant goes, whatever its model: codes, refresh tokens and the grant itself.
    await this.db.delete(oidcRecords).where(eq(oidcRecords.grantId, grantId));
  }
}

/** The adapter factory the provider is configured with. */
export function databaseAdapter(db: Database): AdapterFactory {
  let writes = 0;
  const onWrite = async () => {
    writes += 1;
    if (writes % SWEEP_EVERY_WRITES !== 0) return;
    await db.delete(oidcRecords).where(lt(oidcRecords.expiresAt, new Date(Date.now() - SWEEP_GRACE_MS)));
  };
  return (model: string) => new DatabaseAdapter(db, model, onWrite);
}
