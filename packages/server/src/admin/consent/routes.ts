import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConsentInputSchema, ConsentSchema, ErrorBody, type Consent } from '@marketplace/api-contract';
import {
  CONSENT_CHOICES,
  CONSENT_COOKIE,
  CONSENT_COOKIE_MAX_AGE_SECONDS,
  CONSENT_FORM_PATH,
  consentFromCookies,
  type ConsentChoice,
} from '@marketplace/core';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../../auth/authorization';
import { userConsents } from '../../db/schema';
import { ApiError } from '../../plugins/app/errors';

const TAGS = ['consent'];
const PATH = '/api/consent';
const FORM = 'application/x-www-form-urlencoded';
/** The form has two short fields; the page's path and query are the longer one. */
const FORM_BODY_LIMIT = 8 * 1024;
const RETURN_PATH_MAX_LENGTH = 2048;

/**
 * The page a form post returns to: a path (and query) on this site, normalised, or undefined when `raw` is
 * anything else. Only a path is taken, never an address, and none that a browser would read as another
 * host (`//host`, `/\host`, or `/.//host`, which the URL parser turns into `//host`): no open redirect.
 */
function sameSiteReturnPath(raw: unknown, origin: string): string | undefined {
  if (typeof raw !== 'string' || raw.length > RETURN_PATH_MAX_LENGTH) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here.
  if (!raw.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(raw) || raw.startsWith('//')) return undefined;
  const url = new URL(raw, origin);
  const path = `${url.pathname}${url.search}`;
  return url.origin === origin && !path.startsWith('//') ? path : undefined;
}

/**
 * Whether a post comes from this marketplace's own pages. The API's writes need no such check: they carry a
 * bearer token, which a browser never sends on its own, and CORS allows no credentials. A form post is a
 * request any site's page can make, though, and its answer writes the visitor's cookie: a forged choice.
 * Browsers say where a request comes from in Sec-Fetch-Site, or (older ones) in Origin, which every browser
 * sends with a POST; a request with neither is no browser's, so no visitor's choice to forge.
 */
function fromOwnPage(request: FastifyRequest, origin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const from = request.headers.origin;
  return from === undefined || from === origin;
}

/**
 * `GET/PUT /api/consent`: the visitor's choice about optional cookies and analytics. Signed in, the choice
 * is kept for the user; in every case it is also written to the browser's cookie, which is what downloads
 * from that browser carry (they are navigations, with no Authorization header). `POST /consent` is the
 * banner's form, the same record for a page whose script has not run.
 */
export const consentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const required = app.config.insight.consentRequired;
  const secure = app.config.publicUrl.startsWith('https:');
  const origin = new URL(app.config.publicUrl).origin;

  function setCookie(reply: FastifyReply, choice: ConsentChoice) {
    // Not HttpOnly: the site reads it to know, without a call, that the banner is not needed. It holds no secret.
    reply.header(
      'set-cookie',
      `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${CONSENT_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax` +
        (secure ? '; Secure' : ''),
    );
  }

  /** Records a choice: in the browser's cookie always, and for the user when one is signed in. */
  async function record(viewer: Viewer, reply: FastifyReply, analytics: boolean): Promise<Consent> {
    setCookie(reply, analytics ? 'granted' : 'denied');
    if (viewer.kind !== 'user') {
      return { analytics, decidedAt: Date.now(), storedFor: 'browser', required };
    }
    const [row] = await db
      .insert(userConsents)
      .values({ userId: viewer.user.id, analytics })
      .onConflictDoUpdate({
        target: userConsents.userId,
        set: { analytics, decidedAt: sql`now()` },
      })
      .returning();
    return { analytics, decidedAt: row!.decidedAt.getTime(), storedFor: 'user', required };
  }

  app.get(
    PATH,
    {
      config: { auth: { rule: 'public' } },
      schema: {
        tags: TAGS,
        summary: 'The visitor’s choice about optional cookies and analytics (null: not decided yet)',
        response: { 200: ConsentSchema },
      },
    },
    async (request, reply): Promise<Consent> => {
      const inCookie = consentFromCookies(request.headers.cookie);
      const viewer = request.viewer;
      if (viewer.kind === 'user') {
        const [row] = await db.select().from(userConsents).where(eq(userConsents.userId, viewer.user.id));
        if (row) {
          const choice: ConsentChoice = row.analytics ? 'granted' : 'denied';
          // A user's choice follows them to every browser they sign in on.
          if (inCookie !== choice) setCookie(reply, choice);
          return {
            analytics: row.analytics,
            decidedAt: row.decidedAt.getTime(),
            storedFor: 'user',
            required,
          };
        }
      }
      return {
        analytics: inCookie === undefined ? null : inCookie === 'granted',
        decidedAt: null,
        storedFor: 'browser',
        required,
      };
    },
  );

  app.put(
    PATH,
    {
      // A visitor's own choice changes no public answer: the kept answers stay.
      config: { auth: { rule: 'public' }, readOnly: true },
      schema: {
        tags: TAGS,
        summary: 'Record the visitor’s choice: kept for the signed-in user, and in the browser’s cookie',
        body: ConsentInputSchema,
        response: { 200: ConsentSchema, 400: ErrorBody },
      },
    },
    async (request, reply): Promise<Consent> => record(request.viewer, reply, request.body.analytics),
  );

  // The banner's form, for a page whose script has not run yet (or never will): the same record, then back
  // to the page, which the browser asks for again with the cookie, so without the banner.
  await app.register(async (form) => {
    if (form.hasContentTypeParser(FORM)) form.removeContentTypeParser(FORM);
    form.addContentTypeParser(
      FORM,
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    form.post<{ Body: Record<string, string> | undefined }>(
      CONSENT_FORM_PATH,
      {
        config: { auth: { rule: 'public' }, readOnly: true },
        schema: { hide: true },
      },
      async (request, reply) => {
        if (!fromOwnPage(request, origin)) {
          throw new ApiError(
            'forbidden',
            'The cookie choice can only be made on this marketplace’s own pages.',
          );
        }
        const choice = request.body?.choice;
        if (!(CONSENT_CHOICES as readonly unknown[]).includes(choice)) {
          throw new ApiError(
            'badRequest',
            'The cookie choice must be "granted" (accept) or "denied" (decline).',
          );
        }
        const back = sameSiteReturnPath(request.body?.returnTo, origin);
        if (back === undefined) {
          throw new ApiError(
            'badRequest',
            'The page to return to must be a path on this site, such as "/search?search=git".',
          );
        }
        await record(request.viewer, reply, choice === 'granted');
        return reply.redirect(back, 303);
      },
    );
  });
};
