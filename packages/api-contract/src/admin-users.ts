import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

/**
 * The users of the admin area (spec §7 `/api/users`, `/api/users/suggestions`, `/api/users/{id}/{x}`):
 * administrators list, search, ban and unban users and grant or revoke the administrator role; signed-in
 * developers find users by login or name when they add developers to an item.
 */

export const USER_ROLE_FILTERS = ['all', 'admin', 'banned'] as const;
export type UserRoleFilter = (typeof USER_ROLE_FILTERS)[number];

/** GET /api/users: paged (page, size), newest first, `search` in login, name and email. */
export const UsersQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 100 })),
  filter: Type.Enum([...USER_ROLE_FILTERS], { default: 'all' }),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type UsersQuery = Static<typeof UsersQuery>;

/** A user as the administrators see them. */
export const AdminUserSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  /** 'developer' for everyone; 'administrator' too for administrators. */
  roles: Type.Array(Type.String()),
  isAdmin: Type.Boolean(),
  banned: Type.Boolean(),
  banReason: Nullable(Type.String()),
  bannedAt: Nullable(Timestamp),
  bannedBy: Nullable(Type.Integer()),
  /** Items the user owns or develops (deleted ones aside). */
  itemCount: Type.Integer(),
  cdate: Timestamp,
});
export type AdminUserBody = Static<typeof AdminUserSchema>;

export const UsersPageSchema = Type.Object({
  data: Type.Array(AdminUserSchema),
  total: Type.Integer(),
});
export type UsersPageBody = Static<typeof UsersPageSchema>;

/** GET /api/users/suggestions?q=: up to `size` users whose login or name starts with (or contains) q. */
export const UserSuggestionsQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 100 }),
  size: Type.Integer({ minimum: 1, maximum: 20, default: 8 }),
});
export type UserSuggestionsQuery = Static<typeof UserSuggestionsQuery>;

/** A type-ahead suggestion: enough to recognise a person, never their email. Banned users are not offered. */
export const UserSuggestionSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
});
export type UserSuggestionBody = Static<typeof UserSuggestionSchema>;

export const USER_ACTIONS = ['ban', 'unban', 'grant-admin', 'revoke-admin'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** POST /api/users/{id}/{ban|unban|grant-admin|revoke-admin}. */
export const UserActionParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  x: Type.Enum([...USER_ACTIONS], { description: 'ban, unban, grant-admin or revoke-admin' }),
});
export type UserActionParams = Static<typeof UserActionParams>;

/** The reason, required for a ban (the banned user is shown nothing else), optional otherwise. */
export const UserActionBody = Type.Optional(
  Type.Union([Type.Null(), Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) })]),
);
export type UserActionBody = Static<typeof UserActionBody>;
