import type { AuthUserBody } from '@marketplace/api-contract';
import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Database } from '../db/client';
import { userIdentities } from '../db/schema/auth';
import { users } from '../db/schema/catalogue';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';

export type UserRow = typeof users.$inferSelect;

/** The signed-in person as the rest of the server sees them. */
export interface AuthenticatedUser {
  id: number;
  login: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  isAdmin: boolean;
  banned: boolean;
}

export const GUEST_AUTH_USER: AuthUserBody = Object.freeze({
  guest: true,
  id: null,
  name: null,
  login: null,
  email: null,
  emailVerified: false,
  banned: false,
  isAdmin: false,
});

export function toAuthenticatedUser(row: UserRow): AuthenticatedUser {
  return {
    id: row.id,
    login: row.login,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    isAdmin: row.isAdmin,
    banned: row.banned,
  };
}

export function toAuthUserBody(user: AuthenticatedUser): AuthUserBody {
  return {
    guest: false,
    id: user.id,
    name: user.name,
    login: user.login,
    email: user.email,
    emailVerified: user.emailVerified,
    banned: user.banned,
    isAdmin: user.isAdmin,
  };
}

export class UserInputError extends Error {
  override name = 'UserInputError';
}

/** Logins appear in URLs and command lines: letters, digits, dot, dash and underscore, 2 to 50 of them. */
const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,49}$/;

export function loginProblem(login: string): string | undefined {
  if (!LOGIN_PATTERN.test(login)) {
    return 'A login has 2 to 50 characters: letters, digits, dots, dashes and underscores, starting with a letter or digit.';
  }
  return undefined;
}

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Logins are matched without regard to case, so "Alice" and "alice" cannot both exist in practice. */
export async function findUserByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.login}) = lower(${login})`)
    .limit(1);
  return row;
}

export interface NewLocalUser {
  login: string;
  password: string;
  name?: string | undefined;
  email?: string | undefined;
  isAdmin?: boolean | undefined;
}

/** Creates a user who signs in with a password at the embedded identity service. */
export async function createLocalUser(db: Database, input: NewLocalUser): Promise<UserRow> {
  const problem = loginProblem(input.login) ?? passwordProblem(input.password);
  if (problem) throw new UserInputError(problem);
  if (input.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(input.email)) {
    throw new UserInputError(`"${input.email}" is not an email address.`);
  }
  if (await findUserByLogin(db, input.login)) {
    throw new UserInputError(`The login "${input.login}" is already taken.`);
  }
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({
      login: input.login,
      name: input.name?.trim() || input.login,
      email: input.email ?? null,
      isAdmin: input.isAdmin ?? false,
      passwordHash,
    })
    .onConflictDoNothing({ target: users.login })
    .returning();
  if (!row) throw new UserInputError(`The login "${input.login}" is already taken.`);
  return row;
}

export async function setUserPassword(db: Database, login: string, password: string): Promise<UserRow> {
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(problem);
  const user = await findUserByLogin(db, login);
  if (!user) throw new UserInputError(`There is no user with the login "${login}".`);
  const [row] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, user.id))
    .returning();
  return row ?? user;
}

/** The user whose login and password these are, or undefined (the same time is spent either way). */
export async function authenticateWithPassword(
  db: Database,
  login: string,
  password: string,
): Promise<UserRow | undefined> {
  const user = login.length <= 50 ? await findUserByLogin(db, login) : undefined;
  const matches = await verifyPassword(user?.passwordHash, password);
  return matches ? user : undefined;
}

/** What an external identity service says about a person, from the claims of its access token. */
export interface ExternalIdentityClaims {
  subject: string;
  preferredUsername?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  emailVerified?: boolean | undefined;
}

function loginCandidate(claims: ExternalIdentityClaims): string {
  const fromClaims = (claims.preferredUsername ?? claims.email?.split('@')[0] ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40);
  return fromClaims.length >= 2
    ? fromClaims
    : `user-${claims.subject.replace(/[^A-Za-z0-9]/g, '').slice(0, 20)}`;
}

/**
 * The user linked to an external identity, created on first sight. Their login comes from the token's
 * preferred_username (or email), made unique with a number when taken by someone else.
 */
export async function findOrCreateExternalUser(
  db: Database,
  issuer: string,
  claims: ExternalIdentityClaims,
): Promise<UserRow> {
  const [linked] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(sql`${userIdentities.issuer} = ${issuer} AND ${userIdentities.subject} = ${claims.subject}`)
    .limit(1);
  if (linked) return linked.user;
  try {
    return await createLinkedUser(db, issuer, claims);
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
    // Another request linked this identity at the same moment: use theirs.
    const [raced] = await db
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(sql`${userIdentities.issuer} = ${issuer} AND ${userIdentities.subject} = ${claims.subject}`)
      .limit(1);
    if (!raced) throw error;
    return raced.user;
  }
}

async function createLinkedUser(
  db: Database,
  issuer: string,
  claims: ExternalIdentityClaims,
): Promise<UserRow> {
  const base = loginCandidate(claims);
  return db.transaction(async (tx) => {
    let created: UserRow | undefined;
    for (let attempt = 0; attempt < 20 && !created; attempt += 1) {
      const login = attempt === 0 ? base : `${base}-${attempt + 1}`;
      [created] = await tx
        .insert(users)
        .values({
          login,
          name: claims.name?.trim() || login,
          email: claims.email ?? null,
          emailVerified: claims.emailVerified ?? false,
        })
        .onConflictDoNothing({ target: users.login })
        .returning();
    }
    if (!created) throw new Error(`No free login found for the external user "${base}".`);
    const [link] = await tx
      .insert(userIdentities)
      .values({ issuer, subject: claims.subject, userId: created.id })
      .onConflictDoNothing()
      .returning();
    if (!link) tx.rollback();
    return created;
  });
}
