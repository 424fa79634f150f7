import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConsentInputSchema, ConsentSchema, ErrorBody, type Consent } from '@marketplace/api-contract';
import {
  CONSENT_COOKIE,
  CONSENT_COOKIE_MAX_AGE_SECONDS,
  consentFromCookies,
  type ConsentChoice,
} from '@marketplace/core';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { userConsents } from '../../db/schema';

const TAGS = ['consent'];
const PATH = '/api/consent';

/**
 * `GET/PUT /api/consent`: the visitor's choice about optional cookies and analytics. Signed in, the choice
 * is kept for the user; in every case it is also written to the browser's cookie, which is what downloads
 * from that browser carry (they are navigations, with no Authorization header).
 */
export const consentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const required = app.config.insight.consentRequired;
  const secure = app.config.publicUrl.startsWith('https:');

  function setCookie(reply: FastifyReply, choice: ConsentChoice) {
    // Not HttpOnly: the site reads it to know, without a call, that the banner is not needed. It holds no secret.
    reply.header(
      'set-cookie',
      `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${CONSENT_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax` +
        (secure ? '; Secure' : ''),
    );
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
      config: { auth: { rule: 'public' } },
      schema: {
        tags: TAGS,
        summary: 'Record the visitor’s choice: kept for the signed-in user, and in the browser’s cookie',
        body: ConsentInputSchema,
        response: { 200: ConsentSchema, 400: ErrorBody },
      },
    },
    async (request, reply): Promise<Consent> => {
      const analytics = request.body.analytics;
      setCookie(reply, analytics ? 'granted' : 'denied');
      const viewer = request.viewer;
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
    },
  );
};
