import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import type { Database } from '../db/client';
import { INTERACTION_PATH, OIDC_MOUNT_PATH } from './embedded-provider';
import { LOGIN_PAGE_SECURITY_HEADERS, renderLoginPage, renderMessagePage } from './login-page';
import { authenticateWithPassword } from './users';

export interface OidcRoutesOptions {
  provider: Provider;
  db: Database;
  /** Counts one password attempt; resolves to the seconds to wait when the limit is reached. */
  limitLoginAttempt: (request: FastifyRequest) => Promise<number | undefined>;
}

const EXPIRED_MESSAGE =
  'This sign-in page has expired or was already used. Please go back to the marketplace and sign in again.';
const WRONG_PASSWORD = 'Wrong login or password.';
const FORM_BODY_LIMIT = 8 * 1024;

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(LOGIN_PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(html);
}

function isExpiredInteraction(error: unknown): boolean {
  return error instanceof oidcErrors.SessionNotFound || error instanceof oidcErrors.InvalidRequest;
}

/** The login page and its form posts: the part of the identity service that is ours, not the library's. */
async function interactionRoutes(
  app: FastifyInstance,
  { provider, db, limitLoginAttempt }: OidcRoutesOptions,
) {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.removeContentTypeParser('application/x-www-form-urlencoded');
  }
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const actions = (uid: string) => ({
    loginAction: `${INTERACTION_PATH}/${encodeURIComponent(uid)}/login`,
    abortAction: `${INTERACTION_PATH}/${encodeURIComponent(uid)}/abort`,
  });

  /** The interaction this browser is in (bound to its cookie), or undefined when it has expired. */
  async function currentInteraction(
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
  ) {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === request.params.uid ? details : undefined;
    } catch (error) {
      if (isExpiredInteraction(error)) return undefined;
      throw error;
    }
  }

  app.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, async (request, reply) => {
    const details = await currentInteraction(request, reply);
    if (!details)
      return sendPage(reply, 400, renderMessagePage({ title: 'Sign-in expired', message: EXPIRED_MESSAGE }));
    if (details.prompt.name === 'login') {
      const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      return sendPage(reply, 200, renderLoginPage({ ...actions(details.uid), login: loginHint }));
    }
    // Any other prompt is a consent one: the site is first-party, so grant what it asked for and go on.
    const session = details.session;
    if (!session)
      return sendPage(reply, 400, renderMessagePage({ title: 'Sign-in expired', message: EXPIRED_MESSAGE }));
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: session.accountId, clientId: String(details.params.client_id) }))
      : new provider.Grant({ accountId: session.accountId, clientId: String(details.params.client_id) });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    const grantId = await grant.save();
    reply.hijack();
    await provider.interactionFinished(
      request.raw,
      reply.raw,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
    `${INTERACTION_PATH}/:uid/login`,
    { config: { auth: { rule: 'public' }, writeLimit: false } },
    async (request, reply) => {
      const details = await currentInteraction(request, reply);
      if (!details)
        return sendPage(
          reply,
          400,
          renderMessagePage({ title: 'Sign-in expired', message: EXPIRED_MESSAGE }),
        );
      const login = typeof request.body?.login === 'string' ? request.body.login.trim() : '';
      const password = typeof request.body?.password === 'string' ? request.body.password : '';
      const page = (status: number, error: string) =>
        sendPage(reply, status, renderLoginPage({ ...actions(details.uid), login, error }));
      if (login === '' || password === '') return page(400, 'Enter your login and password.');
      const waitSeconds = await limitLoginAttempt(request);
      if (waitSeconds !== undefined) {
        reply.header('retry-after', String(waitSeconds));
        return page(429, `Too many sign-in attempts. Please wait ${waitSeconds} seconds and try again.`);
      }
      const user = await authenticateWithPassword(db, login, password);
      if (!user) {
        request.log.info({ login }, 'sign-in refused: wrong login or password');
        return page(401, WRONG_PASSWORD);
      }
      request.log.info({ userId: user.id }, 'signed in');
      reply.hijack();
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        { login: { accountId: String(user.id), amr: ['pwd'] } },
        { mergeWithLastSubmission: false },
      );
    },
  );

  app.post<{ Params: { uid: string } }>(
    `${INTERACTION_PATH}/:uid/abort`,
    { config: { auth: { rule: 'public' }, writeLimit: false } },
    async (request, reply) => {
      const details = await currentInteraction(request, reply);
      if (!details)
        return sendPage(
          reply,
          400,
          renderMessagePage({ title: 'Sign-in expired', message: EXPIRED_MESSAGE }),
        );
      reply.hijack();
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
    },
  );
}

/**
 * Everything else under /oidc goes to the provider (a Koa app) untouched: its own body parsing, cookies and
 * answers. The path is given to it without the mount prefix, and `originalUrl` keeps the full one, which is
 * how the provider learns where it is mounted.
 */
async function providerPassthrough(app: FastifyInstance, { provider }: { provider: Provider }) {
  app.removeAllContentTypeParsers();
  // Leave the body unread: the provider reads it from the raw request itself.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const callback = provider.callback();
  const forward = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? '/';
    raw.originalUrl = url;
    // `/oidc?x` must reach it as `/?x`: a path without its leading slash made the provider answer 500.
    const rest = url.slice(OIDC_MOUNT_PATH.length);
    raw.url = rest.startsWith('/') ? rest : `/${rest}`;
    void callback(raw, reply.raw);
  };
  // The provider's own endpoints count against the limit on writes (per IP address: the viewer is a guest).
  const config = { auth: { rule: 'public' as const }, ownAuthorization: true };
  const methods = ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT', 'PATCH'];
  app.route({ method: methods, url: OIDC_MOUNT_PATH, config, handler: forward });
  app.route({ method: methods, url: `${OIDC_MOUNT_PATH}/*`, config, handler: forward });
}

export async function oidcRoutes(app: FastifyInstance, options: OidcRoutesOptions): Promise<void> {
  await app.register(interactionRoutes, options);
  await app.register(providerPassthrough, { provider: options.provider });
}
