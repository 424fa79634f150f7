import { randomInt } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema/catalogue';
import { hashPassword } from './passwords';

/**
 * The accounts a demo catalogue signs in with: one per role. The demo generator creates their user rows
 * (admin with is_admin set); sign-in gives them passwords when the demo data is loaded.
 */
export const DEMO_ACCOUNT_LOGINS = ['admin', 'developer', 'visitor'] as const;

export interface DemoAccount {
  login: string;
  password: string;
  role: 'administrator' | 'developer' | 'visitor';
}

/** What each demo account is for: `developer` owns the demo's first items, `visitor` owns none and buys. */
function demoRole(login: string, isAdmin: boolean): DemoAccount['role'] {
  if (isAdmin) return 'administrator';
  return login === 'developer' ? 'developer' : 'visitor';
}

/** Letters and digits that cannot be mistaken for one another when read off a terminal. */
const READABLE = 'abcdefghjkmnpqrstuvwxyz23456789';

function readablePassword(): string {
  const groups = Array.from({ length: 3 }, () =>
    Array.from({ length: 4 }, () => READABLE[randomInt(READABLE.length)]).join(''),
  );
  return groups.join('-');
}

/**
 * Gives each demo account present in the database a fresh random password and returns them, to print at
 * start. Random rather than fixed: a demo server reachable by others must not open with known passwords.
 * Forgotten ones are reset with `mp users set-password`.
 */
export async function setDemoPasswords(
  db: Database,
  logins: readonly string[] = DEMO_ACCOUNT_LOGINS,
): Promise<DemoAccount[]> {
  const rows = await db
    .select()
    .from(users)
    .where(inArray(users.login, [...logins]));
  const accounts: DemoAccount[] = [];
  for (const login of logins) {
    const row = rows.find((candidate) => candidate.login === login);
    if (!row) continue;
    const password = readablePassword();
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(inArray(users.id, [row.id]));
    accounts.push({ login, password, role: demoRole(login, row.isAdmin) });
  }
  return accounts;
}

/** The lines to print at start, e.g. `  admin / abcd-efgh-jkmn  (administrator)`. */
export function describeDemoAccounts(accounts: readonly DemoAccount[], publicUrl: string): string {
  if (accounts.length === 0) return '';
  const width = Math.max(...accounts.map((account) => account.login.length));
  return [
    `Demo accounts (sign in at ${publicUrl}):`,
    ...accounts.map((account) => `  ${account.login.padEnd(width)} / ${account.password}  (${account.role})`),
  ].join('\n');
}
