import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/client';
import type { AuthConfig } from './config';
import type { IdentityKeys } from './keys';
import { renderLogoutPage, renderMessagePage } from './login-page';
import { databaseAdapter } from './oidc-adapter';
import { findUserById } from './users';

/** Where the embedded provider is mounted on the server. */
export const OIDC_MOUNT_PATH = '/oidc';
/** The login page of an interaction: `/oidc/interaction/<uid>`. */
export const INTERACTION_PATH = `${OIDC_MOUNT_PATH}/interaction`;

/** Every OpenID scope the site's client may ask for, and so what a grant gives it at once. */
const CLIENT_SCOPES = 'openid profile email offline_access';
/** The single scope of the marketplace API as a resource server. */
const API_SCOPE = 'api';

/**
 * The embedded OpenID Connect provider: authorization code with PKCE for the site's public client, refresh
 * tokens, and access tokens that are JWTs for the marketplace API (audience `config.audience`) signed with
 * ES256, so the API verifies them with the published keys like it would any external issuer's.
 */
export function createEmbeddedProvider(db: Database, config: AuthConfig, keys: IdentityKeys): Provider {
  if (config.identity.kind !== 'embedded')
    throw new Error('The embedded provider needs the embedded identity settings.');
  const { issuer, clientId, redirectUris, postLogoutRedirectUris } = config.identity;
  const audience = config.audience;
  const siteOrigins = new Set([config.publicUrl, ...redirectUris].map((uri) => new URL(uri).origin));

  const configuration: Configuration = {
    adapter: databaseAdapter(db),
    clients: [
      {
        client_id: clientId,
        client_name: 'Marketplace',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
      },
    ],
    jwks: { keys: keys.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    async findAccount(_ctx, sub) {
      const id = /^\d{1,10}$/.test(sub) ? Number(sub) : NaN;
      const user = Number.isSafeInteger(id) ? await findUserById(db, id) : undefined;
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          name: user.name,
          preferred_username: user.login,
          ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
        }),
      };
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    // The site is the only client and is part of this product: signing in is consent enough, so a grant
    // with everything the client may ask for is made on the spot instead of showing a consent screen.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client?.clientId ?? '');
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || ctx.oidc.client?.clientId !== clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope(CLIENT_SCOPES);
      grant.addResourceScope(audience, API_SCOPE);
      await grant.save();
      return grant;
    },
    // Refresh tokens for the site whether or not it asked for offline_access (which needs a consent prompt)...
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // ...bound to the sign-in session: signing out (or the session running out) ends them all.
    expiresWithSession: async () => true,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // Our own pages: the library's defaults load web fonts from a third party.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = renderLogoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = renderMessagePage({
            title: 'Signed out',
            message: 'You are signed out of Marketplace.',
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience,
            accessTokenTTL: config.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: config.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 60 * 60,
      Session: 30 * 24 * 60 * 60,
      Grant: 30 * 24 * 60 * 60,
      RefreshToken: 30 * 24 * 60 * 60,
    },
    clientBasedCORS: (_ctx, origin) => siteOrigins.has(origin),
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = renderMessagePage({
        title: 'Sign-in failed',
        message:
          typeof out.error_description === 'string' && out.error_description
            ? out.error_description
            : 'The sign-in request is not valid. Please go back to the marketplace and sign in again.',
      });
    },
  };
  const provider = new Provider(issuer, configuration);
  // Behind a reverse proxy the provider must believe X-Forwarded-Proto to know it is served over https.
  provider.proxy = true;
  return provider;
}
