import type { ApprovalQueueEntryBody } from '@marketplace/api-contract';
import type { ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { selectRows } from '../search/sql';

export interface ApprovalQueuePage {
  entries: ApprovalQueueEntryBody[];
  total: number;
}

/*
 * A plugin waits for an administrator once its developer has published it (a draft is still the developer's
 * work) and it is either not approved or has versions whose approval is pending. A new item waits from its
 * publication; an update from the upload of its oldest pending version.
 */
const WAITING = sql`p.lifecycle_state = 'published'
  AND (NOT p.approved OR EXISTS (
    SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.approval_state = 'pending'))`;

export async function loadApprovalQueue(
  db: Queryable,
  page: { max: number; offset: number },
): Promise<ApprovalQueuePage> {
  const rows = await selectRows<{
    id: number;
    name: string;
    xml_id: string;
    family: ProductFamily;
    vendor: string | null;
    approved: boolean;
    waiting_since: Date | string;
    pending: { id: number; version: string; channel: string; uploaded: string }[] | null;
    flags: string[] | null;
    total: number | string;
  }>(
    db,
    sql`WITH waiting AS (
        SELECT p.id, p.name, p.xml_id, p.family, v.name AS vendor, p.approved,
          CASE WHEN p.approved
            THEN (SELECT min(pv.created_at) FROM plugin_versions pv
                  WHERE pv.plugin_id = p.id AND pv.approval_state = 'pending')
            ELSE coalesce(p.published_at, p.created_at)
          END AS waiting_since
        FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
        WHERE ${WAITING}
      )
      SELECT w.*, count(*) OVER () AS total,
        (SELECT json_agg(json_build_object('id', pv.id, 'version', pv.version, 'channel', pv.channel,
                 'uploaded', pv.created_at) ORDER BY pv.created_at, pv.id)
           FROM plugin_versions pv WHERE pv.plugin_id = w.id AND pv.approval_state = 'pending') AS pending,
        (SELECT json_agg(n.text ORDER BY n.created_at, n.id) FROM admin_notes n
           WHERE n.plugin_id = w.id AND n.author_id IS NULL AND n.resolved_at IS NULL) AS flags
      FROM waiting w
      ORDER BY w.waiting_since, w.id
      LIMIT ${page.max} OFFSET ${page.offset}`,
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && page.offset > 0) {
    // Past the end the window count has no row to ride on: count apart so the Link headers stay right.
    const [counted] = await selectRows<{ total: number | string }>(
      db,
      sql`SELECT count(*) AS total FROM plugins p WHERE ${WAITING}`,
    );
    total = Number(counted?.total ?? 0);
  }
  return {
    total,
    entries: rows.map((row) => ({
      id: row.id,
      name: row.name,
      xmlId: row.xml_id,
      family: row.family,
      vendor: row.vendor,
      kind: row.approved ? 'update' : 'new',
      pendingVersions: (row.pending ?? []).map((version) => ({
        id: version.id,
        version: version.version,
        channel: version.channel,
        uploaded: new Date(version.uploaded).getTime(),
      })),
      waitingSince: new Date(row.waiting_since).getTime(),
      flags: row.flags ?? [],
    })),
  };
}
