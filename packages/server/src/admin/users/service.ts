import type { AdminUserBody, UserAction } from '@marketplace/api-contract';
import { eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { users } from '../../db/schema/catalogue';
import { epochMs, selectRows } from '../../search/sql';
import { recordAdminAudit } from '../audit';

/**
 * The administrators' user operations, shared by the HTTP routes (`/api/users/{id}/{x}`) and the `mp users`
 * command, so both keep the same rules: a ban needs a reason, nobody bans themselves or takes their own
 * administrator role, and every change is written to the audit log in the same transaction.
 */

/** A refused user operation; `status` is the HTTP answer (the command prints the message). */
export class UserActionError extends Error {
  override name = 'UserActionError';
  constructor(
    readonly status: 400 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** The audit log's names of the operations. */
const AUDIT_ACTIONS: Readonly<Record<UserAction, string>> = {
  ban: 'ban-user',
  unban: 'unban-user',
  'grant-admin': 'grant-admin',
  'revoke-admin': 'revoke-admin',
};

export const BAN_REASON_REQUIRED = 'Say why the user is banned: the reason is required.';

interface AdminUserRow {
  id: number;
  login: string;
  name: string;
  email: string | null;
  is_admin: boolean;
  banned: boolean;
  ban_reason: string | null;
  banned_at: number | null;
  banned_by: number | null;
  created_at: number;
  item_count: number;
}

const ADMIN_USER_COLUMNS = sql`u.id, u.login, u.name, u.email, u.is_admin, u.banned, u.ban_reason,
  ${epochMs(sql`u.banned_at`)} AS banned_at, u.banned_by, ${epochMs(sql`u.created_at`)} AS created_at,
  (SELECT count(*)::int FROM plugins p WHERE p.lifecycle_state <> 'deleted' AND (p.owner_id = u.id
    OR EXISTS (SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = u.id))) AS item_count`;

function toBody(row: AdminUserRow): AdminUserBody {
  return {
    id: row.id,
    login: row.login,
    name: row.name,
    email: row.email,
    roles: row.is_admin ? ['developer', 'administrator'] : ['developer'],
    isAdmin: row.is_admin,
    banned: row.banned,
    banReason: row.ban_reason,
    bannedAt: row.banned_at,
    bannedBy: row.banned_by,
    itemCount: row.item_count,
    cdate: row.created_at,
  };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern built from what a person typed. */
function likeText(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export async function findAdminUser(db: Queryable, userId: number): Promise<AdminUserBody | undefined> {
  const [row] = await selectRows<AdminUserRow>(
    db,
    sql`SELECT ${ADMIN_USER_COLUMNS} FROM users u WHERE u.id = ${userId}`,
  );
  return row ? toBody(row) : undefined;
}

/** The administrators' list: newest accounts first, searched in login, name and email. */
export async function listUsers(
  db: Queryable,
  query: { search?: string; filter: 'all' | 'admin' | 'banned'; page: number; size: number },
): Promise<{ data: AdminUserBody[]; total: number }> {
  const search = query.search?.trim() ?? '';
  const pattern = `%${likeText(search.toLowerCase())}%`;
  const conditions = [
    search === ''
      ? sql`true`
      : sql`(lower(u.login) LIKE ${pattern} OR lower(u.name) LIKE ${pattern} OR lower(coalesce(u.email, '')) LIKE ${pattern})`,
    query.filter === 'admin' ? sql`u.is_admin` : query.filter === 'banned' ? sql`u.banned` : sql`true`,
  ];
  const where = sql.join(conditions, sql` AND `);
  const [count] = await selectRows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM users u WHERE ${where}`,
  );
  const rows = await selectRows<AdminUserRow>(
    db,
    sql`SELECT ${ADMIN_USER_COLUMNS} FROM users u WHERE ${where}
      ORDER BY u.created_at DESC, u.id DESC LIMIT ${query.size} OFFSET ${(query.page - 1) * query.size}`,
  );
  return { data: rows.map(toBody), total: count?.total ?? 0 };
}

/**
 * Type-ahead for adding developers: users whose login or name starts with the text come first, then those
 * that contain it. Banned users cannot be developers (the developers route refuses them), so they are not
 * offered; emails are never shown.
 */
export async function suggestUsers(
  db: Queryable,
  text: string,
  size: number,
): Promise<{ id: number; login: string; name: string }[]> {
  const typed = likeText(text.trim().toLowerCase());
  if (typed === '') return [];
  return selectRows(
    db,
    sql`SELECT u.id, u.login, u.name FROM users u
      WHERE NOT u.banned AND (lower(u.login) LIKE ${`%${typed}%`} OR lower(u.name) LIKE ${`%${typed}%`})
      ORDER BY (lower(u.login) LIKE ${`${typed}%`} OR lower(u.name) LIKE ${`${typed}%`}) DESC, u.login
      LIMIT ${size}`,
  );
}

/**
 * Bans, unbans, grants or revokes the administrator role. `actorId` null is the `mp` command (run by the
 * operator on the machine). Nothing changes when the operation is refused.
 */
export async function applyUserAction(
  db: Database,
  input: {
    userId: number;
    action: UserAction;
    reason?: string | undefined;
    actorId: number | null;
    via?: string;
  },
): Promise<AdminUserBody> {
  const reason = input.reason?.trim() ?? '';
  if (input.action === 'ban' && reason === '') throw new UserActionError(400, BAN_REASON_REQUIRED);
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
    if (!user) throw new UserActionError(400, `There is no user ${input.userId}.`);
    const self = input.actorId !== null && input.actorId === user.id;
    switch (input.action) {
      case 'ban':
        if (self) throw new UserActionError(400, 'You cannot ban yourself.');
        if (user.banned) throw new UserActionError(409, `${user.login} is already banned.`);
        await tx
          .update(users)
          .set({ banned: true, banReason: reason, bannedAt: new Date(), bannedBy: input.actorId })
          .where(eq(users.id, user.id));
        break;
      case 'unban':
        if (!user.banned) throw new UserActionError(409, `${user.login} is not banned.`);
        await tx
          .update(users)
          .set({ banned: false, banReason: null, bannedAt: null, bannedBy: null })
          .where(eq(users.id, user.id));
        break;
      case 'grant-admin':
        if (user.isAdmin) throw new UserActionError(409, `${user.login} is already an administrator.`);
        await tx.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
        break;
      case 'revoke-admin':
        if (self) throw new UserActionError(400, 'You cannot remove your own administrator role.');
        if (!user.isAdmin) throw new UserActionError(409, `${user.login} is not an administrator.`);
        await tx.update(users).set({ isAdmin: false }).where(eq(users.id, user.id));
        break;
      default:
        return input.action satisfies never;
    }
    await recordAdminAudit(tx, {
      actorId: input.actorId,
      action: AUDIT_ACTIONS[input.action],
      subject: `user:${user.id}`,
      ...(reason !== '' ? { reason } : {}),
      details: { login: user.login, ...(input.via ? { via: input.via } : {}) },
    });
    const after = await findAdminUser(tx, user.id);
    if (!after) throw new Error('The user disappeared inside the transaction.');
    return after;
  });
}
