import type {
  AdminUserBody,
  UserAction,
  UserRoleFilter,
  UserSuggestionBody,
  UsersPageBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type AdminUser = AdminUserBody;
export type UsersPage = UsersPageBody;
export type UserSuggestion = UserSuggestionBody;
export type { UserAction, UserRoleFilter };

export interface UsersInput {
  search?: string;
  filter?: UserRoleFilter;
  /** 1-based. */
  page?: number;
  /** 20 unless said (at most 100). */
  size?: number;
}

/** The paths of spec §7's users routes of the admin area. */
export const adminUserPaths = {
  users: (input: UsersInput = {}) => `/api/users${buildQuery({ ...input })}`,
  suggestions: (text: string, size?: number) => `/api/users/suggestions${buildQuery({ q: text, size })}`,
  action: (userId: number, action: UserAction) => `/api/users/${pathId('User id', userId)}/${action}`,
};

/**
 * Users as administrators manage them (list, search, ban with a reason, unban, the administrator role), and
 * the type-ahead any signed-in developer uses to add developers to an item.
 */
export class AdminUsersClient {
  constructor(private readonly transport: ApiTransport) {}

  /** Administrators: users newest first, `search` in login, name and email; `total` counts every page. */
  list(input: UsersInput = {}, options: CallOptions = {}): Promise<UsersPage> {
    return this.transport.sendJson({ ...options, method: 'GET', path: adminUserPaths.users(input) });
  }

  /** Signed-in users: up to `size` (8) users whose login or name matches; banned users are never offered. */
  suggestions(text: string, size?: number, options: CallOptions = {}): Promise<UserSuggestion[]> {
    return this.transport.sendJson({
      ...options,
      method: 'GET',
      path: adminUserPaths.suggestions(text, size),
    });
  }

  /** Administrators: bans (the reason is required), unbans, grants or revokes the administrator role. */
  act(userId: number, action: UserAction, reason?: string, options: CallOptions = {}): Promise<AdminUser> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: adminUserPaths.action(userId, action),
      json: reason === undefined ? {} : { reason },
    });
  }

  ban(userId: number, reason: string, options: CallOptions = {}): Promise<AdminUser> {
    return this.act(userId, 'ban', reason, options);
  }

  unban(userId: number, reason?: string, options: CallOptions = {}): Promise<AdminUser> {
    return this.act(userId, 'unban', reason, options);
  }
}
