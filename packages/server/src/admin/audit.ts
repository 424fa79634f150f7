import type { Queryable } from '../db/client';
import { pluginAuditLog } from '../db/schema';

/**
 * Writes one entry of the audit log for an administrator's action that concerns no item (a flag changed, a
 * user banned, a job paused, a cache flushed). It shares the items' log so the audit screen shows one
 * history; `subject` names what was acted on, e.g. "user:12", "feature:new-search", "job:insight-rollup".
 * Call it inside the transaction of the change it records, when there is one.
 */
export async function recordAdminAudit(
  db: Queryable,
  entry: {
    actorId: number | null;
    action: string;
    subject: string;
    reason?: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(pluginAuditLog).values({
    pluginId: null,
    actorId: entry.actorId,
    action: entry.action,
    details: {
      subject: entry.subject,
      ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
      ...entry.details,
    },
  });
}
