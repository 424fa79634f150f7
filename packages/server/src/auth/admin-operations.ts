import { TOKEN_SCOPES, type ApiTokenSummaryBody, type CreatedApiTokenBody } from '@marketplace/api-contract';
import type { Database } from '../db/client';
import { applyUserAction, BAN_REASON_REQUIRED, UserActionError } from '../admin/users/service';
import { createApiToken, isTokenScope, listApiTokens, revokeApiToken, TokenInputError } from './api-tokens';
import { createLocalUser, findUserByLogin, setUserPassword, UserInputError } from './users';

/**
 * The account operations of the `mp users` and `mp tokens` commands. They run in the server process (asked
 * over the local admin channel) or in the command's own process when no server runs: the same code either
 * way, taking plain JSON-able requests, so the channel adds nothing but transport.
 */
export type AdminRequest =
  | {
      operation: 'users.add';
      login: string;
      password: string;
      name?: string;
      email?: string;
      admin?: boolean;
    }
  | { operation: 'users.set-password'; login: string; password: string }
  | { operation: 'users.set-banned'; login: string; banned: boolean; reason?: string }
  | { operation: 'users.set-admin'; login: string; admin: boolean }
  | { operation: 'tokens.create'; login: string; scopes: string[]; name?: string; expiresInDays?: number }
  | { operation: 'tokens.list'; login: string }
  | { operation: 'tokens.revoke'; login: string; id: number };

export type AdminResult =
  | { kind: 'user'; id: number; login: string; isAdmin: boolean; banned: boolean }
  | { kind: 'token'; token: CreatedApiTokenBody }
  | { kind: 'tokens'; tokens: ApiTokenSummaryBody[] }
  | { kind: 'revoked'; id: number };

/** A request that cannot be done as asked; the message is for the person at the command line. */
export class AdminRequestError extends Error {
  override name = 'AdminRequestError';
}

async function userOrFail(db: Database, login: string) {
  const user = await findUserByLogin(db, login);
  if (!user) throw new AdminRequestError(`There is no user with the login "${login}".`);
  return user;
}

function userResult(user: { id: number; login: string; isAdmin: boolean; banned: boolean }): AdminResult {
  return { kind: 'user', id: user.id, login: user.login, isAdmin: user.isAdmin, banned: user.banned };
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** Checks a request that arrived as JSON; the local channel takes nothing else. */
export function parseAdminRequest(value: unknown): AdminRequest {
  const request = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const requireString = (name: string): string => {
    const field = request[name];
    if (!isString(field) || field === '') throw new AdminRequestError(`The request needs "${name}".`);
    return field;
  };
  const optionalString = (name: string): string | undefined => {
    const field = request[name];
    if (field === undefined) return undefined;
    if (!isString(field)) throw new AdminRequestError(`"${name}" must be text.`);
    return field;
  };
  switch (request.operation) {
    case 'users.add':
      return {
        operation: 'users.add',
        login: requireString('login'),
        password: requireString('password'),
        ...(optionalString('name') !== undefined ? { name: optionalString('name') } : {}),
        ...(optionalString('email') !== undefined ? { email: optionalString('email') } : {}),
        admin: request.admin === true,
      };
    case 'users.set-password':
      return {
        operation: 'users.set-password',
        login: requireString('login'),
        password: requireString('password'),
      };
    case 'users.set-banned': {
      const reason = optionalString('reason')?.trim();
      // The same rule as the admin screen's: a ban says why.
      if (request.banned === true && !reason) throw new AdminRequestError(BAN_REASON_REQUIRED);
      return {
        operation: 'users.set-banned',
        login: requireString('login'),
        banned: request.banned === true,
        ...(reason ? { reason } : {}),
      };
    }
    case 'users.set-admin':
      return { operation: 'users.set-admin', login: requireString('login'), admin: request.admin === true };
    case 'tokens.create': {
      const scopes = request.scopes;
      if (!Array.isArray(scopes) || !scopes.every(isString)) {
        throw new AdminRequestError(`"scopes" must list scopes: ${TOKEN_SCOPES.join(', ')}.`);
      }
      const expiresInDays = request.expiresInDays;
      if (expiresInDays !== undefined && typeof expiresInDays !== 'number') {
        throw new AdminRequestError('"expiresInDays" must be a number.');
      }
      return {
        operation: 'tokens.create',
        login: requireString('login'),
        scopes,
        ...(optionalString('name') !== undefined ? { name: optionalString('name') } : {}),
        ...(expiresInDays !== undefined ? { expiresInDays } : {}),
      };
    }
    case 'tokens.list':
      return { operation: 'tokens.list', login: requireString('login') };
    case 'tokens.revoke': {
      const id = request.id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) {
        throw new AdminRequestError('"id" must be the number of a token.');
      }
      return { operation: 'tokens.revoke', login: requireString('login'), id };
    }
    default:
      throw new AdminRequestError(`Unknown operation ${JSON.stringify(request.operation)}.`);
  }
}

export async function runAdminRequest(db: Database, request: AdminRequest): Promise<AdminResult> {
  try {
    switch (request.operation) {
      case 'users.add':
        return userResult(
          await createLocalUser(db, {
            login: request.login,
            password: request.password,
            name: request.name,
            email: request.email,
            isAdmin: request.admin ?? false,
          }),
        );
      case 'users.set-password':
        return userResult(await setUserPassword(db, request.login, request.password));
      case 'users.set-banned':
      case 'users.set-admin': {
        // The admin screen's operations (src/admin/users): same rules, same audit log (actor: the command).
        const user = await userOrFail(db, request.login);
        const action =
          request.operation === 'users.set-banned'
            ? request.banned
              ? 'ban'
              : 'unban'
            : request.admin
              ? 'grant-admin'
              : 'revoke-admin';
        const wanted = request.operation === 'users.set-banned' ? request.banned : request.admin;
        const current = request.operation === 'users.set-banned' ? user.banned : user.isAdmin;
        // Asking for the state the user is already in changes nothing and is not an error at the command line.
        if (wanted === current) return userResult(user);
        const updated = await applyUserAction(db, {
          userId: user.id,
          action,
          reason: request.operation === 'users.set-banned' ? request.reason : undefined,
          actorId: null,
          via: 'mp',
        });
        return {
          kind: 'user',
          id: updated.id,
          login: updated.login,
          isAdmin: updated.isAdmin,
          banned: updated.banned,
        };
      }
      case 'tokens.create': {
        const user = await userOrFail(db, request.login);
        const unknown = request.scopes.find((scope) => !isTokenScope(scope));
        if (unknown !== undefined) {
          throw new AdminRequestError(`Unknown scope "${unknown}". Scopes are: ${TOKEN_SCOPES.join(', ')}.`);
        }
        const token = await createApiToken(db, {
          userId: user.id,
          name: request.name ?? `${request.scopes.join('+')} token`,
          scopes: request.scopes.filter(isTokenScope),
          expiresInDays: request.expiresInDays,
        });
        return { kind: 'token', token };
      }
      case 'tokens.list': {
        const user = await userOrFail(db, request.login);
        return { kind: 'tokens', tokens: await listApiTokens(db, user.id) };
      }
      case 'tokens.revoke': {
        const user = await userOrFail(db, request.login);
        if (!(await revokeApiToken(db, user.id, request.id))) {
          throw new AdminRequestError(
            `"${user.login}" has no token ${request.id}, or it is already revoked.`,
          );
        }
        return { kind: 'revoked', id: request.id };
      }
    }
  } catch (error) {
    if (
      error instanceof UserInputError ||
      error instanceof TokenInputError ||
      error instanceof UserActionError
    ) {
      throw new AdminRequestError(error.message, { cause: error });
    }
    throw error;
  }
}
