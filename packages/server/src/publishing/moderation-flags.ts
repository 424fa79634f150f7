import type { Queryable } from '../db/client';
import { adminNotes } from '../db/schema';
import { recordAudit } from './audit';

/**
 * Flags a version for the moderators: an unresolved admin note on its plugin (what administrators read
 * next to the approval queue) and an entry of the audit log. Other domains (verification) call this
 * instead of refusing a version: the decision stays with a person. Call it inside the transaction that
 * records what was found.
 */
export async function flagVersionForModeration(
  db: Queryable,
  flag: { pluginId: number; versionId: number; version: string; source: string; text: string },
): Promise<number> {
  const [note] = await db
    .insert(adminNotes)
    .values({ pluginId: flag.pluginId, authorId: null, text: flag.text })
    .returning({ id: adminNotes.id });
  if (!note) throw new Error('The moderation flag was not written.');
  await recordAudit(db, {
    pluginId: flag.pluginId,
    actorId: null,
    action: 'flag-version',
    details: { versionId: flag.versionId, version: flag.version, source: flag.source, noteId: note.id },
  });
  return note.id;
}
