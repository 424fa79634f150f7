import type { Queryable } from '../db/client';
import { pluginAuditLog } from '../db/schema';

/** Writes one entry of the audit log; call it inside the transaction of the change it records. */
export async function recordAudit(
  db: Queryable,
  entry: { pluginId: number; actorId: number | null; action: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(pluginAuditLog).values({
    pluginId: entry.pluginId,
    actorId: entry.actorId,
    action: entry.action,
    details: entry.details ?? {},
  });
}
