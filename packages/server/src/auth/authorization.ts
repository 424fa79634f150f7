import type { TokenScope } from '@marketplace/api-contract';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../plugins/app/errors';
import type { AuthenticatedUser } from './users';

/** Who is asking: a guest, or a signed-in user (by sign-in token or by permanent API token). */
export type Viewer =
  | { kind: 'guest' }
  | {
      kind: 'user';
      user: AuthenticatedUser;
      isAdmin: boolean;
      banned: boolean;
      /** Present when the request carries a permanent API token: what that token may do. */
      tokenScopes?: readonly TokenScope[];
    };

export const GUEST_VIEWER: Viewer = Object.freeze({ kind: 'guest' });

/**
 * Who may call a route, declared next to it: `config: { auth: { rule: 'signed-in', scope: 'upload' } }`.
 * - public: anyone, guests included;
 * - signed-in: any signed-in user (a developer);
 * - owner: the users `ownerOf` names for the addressed resource, and administrators;
 * - admin: administrators only.
 * `scope` is what a permanent API token must carry to be accepted here; writes without a declared scope need
 * the `manage` scope. Every write route must declare a rule: the server refuses to start otherwise.
 */
export type AuthRule =
  | { rule: 'public' }
  | { rule: 'signed-in' | 'admin'; scope?: TokenScope }
  | {
      rule: 'owner';
      scope?: TokenScope;
      /**
       * The user ids that own the resource this request addresses, or undefined when there is no such
       * resource (the request is answered 404).
       */
      ownerOf: (request: FastifyRequest) => Promise<readonly number[] | undefined>;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
    /** false: this write route has its own limit (sign-in), so the shared limit on writes skips it. */
    writeLimit?: boolean;
    /**
     * true: the route reads the Authorization header itself (the identity provider's endpoints, where it
     * carries client credentials), so no viewer is resolved from it and the viewer stays a guest.
     */
    ownAuthorization?: boolean;
  }
  interface FastifyRequest {
    /** Who is asking; resolved before any route rule is checked. */
    viewer: Viewer;
  }
}

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase());
}

const RULES = new Set(['public', 'signed-in', 'owner', 'admin']);
const SCOPES = new Set(['upload', 'manage']);

export class RouteRuleError extends Error {
  override name = 'RouteRuleError';
}

/**
 * The startup check: a route that can change data and says nothing about who may call it is a mistake
 * waiting to become a hole, so it stops the server with a message naming the route.
 */
export function checkRouteRule(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): void {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((method) =>
    method.toUpperCase(),
  );
  const auth = (route.config as { auth?: unknown } | undefined)?.auth as Partial<AuthRule> | undefined;
  const where = `${methods.join(',')} ${route.url}`;
  if (auth === undefined) {
    if (methods.some(isWriteMethod)) {
      throw new RouteRuleError(
        `The route ${where} changes data but declares no access rule. Add config: { auth: { rule: ` +
          `'public' | 'signed-in' | 'owner' | 'admin' } } to it.`,
      );
    }
    return;
  }
  if (typeof auth !== 'object' || auth === null || !RULES.has(auth.rule as string)) {
    throw new RouteRuleError(`The route ${where} declares an unknown access rule ${JSON.stringify(auth)}.`);
  }
  if ('scope' in auth && auth.scope !== undefined && !SCOPES.has(auth.scope)) {
    throw new RouteRuleError(`The route ${where} asks for the unknown token scope "${String(auth.scope)}".`);
  }
  if (auth.rule === 'owner' && typeof (auth as { ownerOf?: unknown }).ownerOf !== 'function') {
    throw new RouteRuleError(`The route ${where} is for owners but has no ownerOf function to find them.`);
  }
}

/** Why a request may not go on: the status and a sentence for the person. */
export interface Refusal {
  status: 401 | 403 | 404;
  message: string;
}

export const SIGN_IN_REQUIRED = 'Please sign in to do this.';
export const BANNED_MESSAGE = 'Your account is banned, so you cannot change anything here.';
export const ADMIN_ONLY = 'Only administrators can do this.';
export const OWNER_ONLY = 'Only the developers of this item and administrators can do this.';

/** The scope a permanent token needs on a route, if any. */
export function requiredScope(rule: AuthRule | undefined, method: string): TokenScope | undefined {
  if (rule && 'scope' in rule && rule.scope) return rule.scope;
  return isWriteMethod(method) ? 'manage' : undefined;
}

/** Decides whether the viewer may call the route; undefined means yes. */
export async function refusalFor(
  request: FastifyRequest,
  rule: AuthRule | undefined,
): Promise<Refusal | undefined> {
  const viewer = request.viewer;
  const write = isWriteMethod(request.method);
  if (viewer.kind === 'user' && viewer.banned && write) return { status: 403, message: BANNED_MESSAGE };
  if (rule === undefined || rule.rule === 'public') return undefined;
  if (viewer.kind === 'guest') return { status: 401, message: SIGN_IN_REQUIRED };
  const scope = requiredScope(rule, request.method);
  if (viewer.tokenScopes && scope && !viewer.tokenScopes.includes(scope)) {
    return { status: 403, message: `This API token cannot do this: it needs the "${scope}" scope.` };
  }
  if (rule.rule === 'admin' && !viewer.isAdmin) return { status: 403, message: ADMIN_ONLY };
  if (rule.rule === 'owner') {
    const owners = await rule.ownerOf(request);
    if (owners === undefined) return { status: 404, message: 'There is no such item.' };
    if (!viewer.isAdmin && !owners.includes(viewer.user.id)) return { status: 403, message: OWNER_ONLY };
  }
  return undefined;
}

export type SignedInViewer = Extract<Viewer, { kind: 'user' }>;

/**
 * The signed-in viewer, for handlers of routes whose rule already demands one (the 401 here only guards
 * against a route declared wrongly).
 */
export function signedInViewer(request: FastifyRequest): SignedInViewer {
  const viewer = request.viewer;
  if (viewer.kind !== 'user') throw new ApiError('unauthorized', SIGN_IN_REQUIRED);
  return viewer;
}
