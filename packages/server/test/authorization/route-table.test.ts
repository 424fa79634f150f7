import { sql } from 'drizzle-orm';
import type * as FastifyModule from 'fastify';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import {
  ADMIN_ONLY,
  BANNED_MESSAGE,
  isWriteMethod,
  OWNER_ONLY,
  SIGN_IN_REQUIRED,
  type AuthRule,
} from '../../src/auth/authorization';
import { selectRows } from '../../src/search/sql';
import { createReviewsTestApp } from '../reviews/reviews-test-app';

/*
 * The authorisation of every route that changes data, and of every read that is not public (sales, offers,
 * coupons, orders, licences, tokens...), walked from the server's own route table: every route
 * the real buildApp registers is seen by an onRoute hook put on the Fastify instance the moment it is
 * created. For each such route and each persona the answer must be what the route's declared rule says:
 *
 *   rule       guest  banned  developer (not owner)  owner  administrator
 *   public     -      403     -                      -      -
 *   signed-in  401    403     -                      -      -
 *   owner      401    403     403                    -      -
 *   admin      401    403     403                    403    -
 *
 * A ban stops changes only: on reads a banned user is refused only by the admin rule (and owner reads are not
 * checked for them, since what they may read depends on what they develop or bought).
 * "-" means not refused by the rule: any answer but 401 and 403 (a 400 for the empty body is fine; a 404
 * for a resource an earlier persona already deleted too). Refusals must carry the access layer's own
 * message, so a refusal for another reason cannot pass for the rule's. Non-owners get 403, not 404: every
 * resource here is public (a listed plugin, its reviews), so there is nothing to hide.
 * The identity provider's own endpoints (`ownAuthorization`) read the Authorization header as client
 * credentials, not as the persona's sign-in; there only the access rule's refusals are ruled out, since
 * OAuth answers a bad client with its own 401.
 *
 * Path parameters are filled with real rows owned by the owner persona, created afresh for each route, so
 * that a route deleting its resource cannot change the answers for the next one. Each signed-in persona
 * calls with a sign-in token (a JWT signed with the embedded identity service's key) and with a permanent
 * `perm:` token made by the auth module.
 */

const collected = vi.hoisted(() => ({ routes: [] as RouteOptions[] }));

vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof FastifyModule>();
  const createWithRouteTable = ((options?: Parameters<typeof original.default>[0]) => {
    const app = original.default(options) as unknown as FastifyInstance;
    app.addHook('onRoute', (route) => {
      collected.routes.push(route);
    });
    return app;
  }) as unknown as typeof original.default;
  return { ...original, default: createWithRouteTable, fastify: createWithRouteTable };
});

type Persona = 'guest' | 'banned' | 'developer' | 'owner' | 'admin';
const PERSONAS: readonly Persona[] = ['guest', 'banned', 'developer', 'owner', 'admin'];
type Refusal = { status: 401 | 403; message: string } | undefined;

interface WriteRoute {
  method: string;
  url: string;
  rule: AuthRule['rule'] | undefined;
  ownAuthorization: boolean;
}

/** What the declared rule promises for a persona: the refusal, or undefined when the rule lets them in. */
function expectedRefusal(route: WriteRoute, persona: Persona): Refusal {
  if (route.rule === undefined) {
    throw new Error(`${route.method} ${route.url} changes data but declares no access rule.`);
  }
  const signIn = { status: 401, message: SIGN_IN_REQUIRED } as const;
  const banned = { status: 403, message: BANNED_MESSAGE } as const;
  if (persona === 'banned') {
    // A ban stops changes, not reading: a banned user reads as any user, so only the admin rule refuses them.
    if (!isWriteMethod(route.method))
      return route.rule === 'admin' ? { status: 403, message: ADMIN_ONLY } : undefined;
    return route.ownAuthorization ? undefined : banned;
  }
  switch (route.rule) {
    case 'public':
      return undefined;
    case 'signed-in':
      return persona === 'guest' ? signIn : undefined;
    case 'owner':
      if (persona === 'guest') return signIn;
      return persona === 'developer' ? { status: 403, message: OWNER_ONLY } : undefined;
    case 'admin':
      if (persona === 'guest') return signIn;
      return persona === 'admin' ? undefined : { status: 403, message: ADMIN_ONLY };
    default:
      return route.rule satisfies never;
  }
}

/**
 * The routes to check: every route that changes data, and every read that is not public (sales, offers,
 * orders, tokens...), since what it shows is as private as what a write changes.
 */
function writeRoutesOf(routes: readonly RouteOptions[]): WriteRoute[] {
  const byKey = new Map<string, WriteRoute>();
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { auth?: AuthRule; ownAuthorization?: boolean } | undefined;
    const privateRead = config?.auth !== undefined && config.auth.rule !== 'public';
    const checked = (method: string) => isWriteMethod(method) || (method === 'GET' && privateRead);
    for (const method of methods.map((name) => name.toUpperCase()).filter(checked)) {
      byKey.set(`${method} ${route.url}`, {
        method,
        url: route.url ?? '',
        rule: config?.auth?.rule,
        ownAuthorization: config?.ownAuthorization === true,
      });
    }
  }
  return [...byKey.values()].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
}

const t = await createReviewsTestApp({ catalogue: false });
const writeRoutes = writeRoutesOf(collected.routes);
afterAll(async () => t.close());

interface Resources {
  pluginId: number;
  reviewId: number;
  replyId: number;
  versionId: number;
  screenshotId: number;
  documentationSuffix: string;
  noteId: number;
  tokenId: number;
  vendorId: number;
  offerId: number;
  couponId: number;
  applicationId: number;
  priceChangeId: number;
  orderId: number;
  invoiceId: number;
  exceptionGroupId: number;
  customPageId: number;
  customPageImageId: number;
  verificationId: number;
  reportId: number;
  namespaceClaimId: number;
}

/**
 * What fills a path parameter, by its name, or by the segment before it for `:id`. A route with a parameter
 * missing here fails with a message saying so: give the owner persona such a resource in `freshResources`.
 */
const PATH_PARAMETERS: Record<string, (resources: Resources) => string> = {
  plugins: (resources) => String(resources.pluginId),
  comments: (resources) => String(resources.reviewId),
  replyId: (resources) => String(resources.replyId),
  updates: (resources) => String(resources.versionId),
  screenshotId: (resources) => String(resources.screenshotId),
  urlSuffix: (resources) => resources.documentationSuffix,
  noteId: (resources) => String(resources.noteId),
  tokens: (resources) => String(resources.tokenId),
  plugin: (resources) => String(resources.pluginId),
  vendor: (resources) => String(resources.vendorId),
  // /api/admin/trust/signature-requirements/{vendorId}/lift: nothing required of it (404 once let in).
  vendorId: (resources) => String(resources.vendorId),
  offerId: (resources) => String(resources.offerId),
  couponId: (resources) => String(resources.couponId),
  applicationId: (resources) => String(resources.applicationId),
  changeId: (resources) => String(resources.priceChangeId),
  orders: (resources) => String(resources.orderId),
  invoices: (resources) => String(resources.invoiceId),
  groupId: (resources) => String(resources.exceptionGroupId),
  pageId: (resources) => String(resources.customPageId),
  imageId: (resources) => String(resources.customPageImageId),
  verifications: (resources) => String(resources.verificationId),
  update: (resources) => String(resources.versionId),
  // /api/trust/scans/{versionId} and /api/admin/trust/scans/{versionId}/{action}: the owner's fresh version;
  // releasing it answers 409 once the rule lets the persona in (it is not quarantined).
  versionId: (resources) => String(resources.versionId),
  action: () => 'release',
  reports: (resources) => String(resources.reportId),
  namespaces: (resources) => String(resources.namespaceClaimId),
  // /api/admin/trust/namespaces/{id}/{decision}: approving the fresh claim.
  decision: () => 'approve',
  // /api/admin/trust/mirrors/{id}: an upstream that does not exist (404 once the rule lets the persona in).
  mirrors: () => '2147483647',
  // /api/users/{id}/{x}: a ban without its reason, answered 400 when the rule lets the persona in.
  x: () => 'ban',
  application: (resources) => String(resources.pluginId),
  discard: (resources) => String(resources.verificationId),
  users: () => String(personas.owner),
  uid: () => 'an-interaction-that-does-not-exist',
  family: () => 'intellij',
  // /api/admin/featured-plugins/{product}: one IDE's staff picks.
  product: () => 'IDEA',
  measure: () => 'downloads-count',
  dimension: () => 'country',
  scheduler: () => 'token-cleanup',
  // /api/features/{name}: a flag that does not exist (404 once the rule lets the persona in).
  name: () => 'route-table-flag',
  jobAction: () => 'pause',
  '*': () => 'token',
};

/** Query strings of routes that name their resource there rather than in the path. */
const QUERY_STRINGS: Record<string, (resources: Resources) => string> = {
  '/api/admin/install': (resources) => `pluginId=${resources.pluginId}&updateId=${resources.versionId}`,
  '/api/users/suggestions': () => 'q=access',
  '/statistic/:measure/:dimension': (resources) =>
    `plugin=${resources.pluginId}&startDate=2026-01-01&endDate=2026-01-31`,
};

function concretePath(url: string, resources: Resources): string {
  const segments = url.split('/');
  const query = QUERY_STRINGS[url]?.(resources);
  const path = segments
    .map((segment, index) => {
      if (segment !== '*' && !segment.startsWith(':')) return segment;
      const name = segment === '*' ? '*' : segment.slice(1);
      const key = name === 'id' ? (segments[index - 1] ?? '') : name;
      const fill = PATH_PARAMETERS[key];
      if (!fill) {
        throw new Error(
          `The route ${url} has a path parameter ${segment} (after "${segments[index - 1]}") that this test ` +
            'cannot fill: add a row owned by the owner persona for it to freshResources and PATH_PARAMETERS.',
        );
      }
      return encodeURIComponent(fill(resources));
    })
    .join('/');
  return query === undefined ? path : `${path}?${query}`;
}

const personas = { banned: 0, developer: 0, owner: 0, admin: 0 };
const permanentTokens = new Map<Persona, string>();
let resourceCount = 0;

async function insertedId(statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await selectRows<{ id: number }>(t.db, statement);
  if (!row) throw new Error('The insert returned no row.');
  return row.id;
}

/** A listed plugin of the owner persona, with a review, a reply, a version, a screenshot, a tab and a note. */
async function freshResources(): Promise<Resources> {
  resourceCount += 1;
  const pluginId = await insertedId(
    sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
      VALUES ('intellij', ${`org.example.access${resourceCount}`}, ${`Access Check ${resourceCount}`},
        ${personas.owner}, 'published', true, now()) RETURNING id`,
  );
  // The banned persona develops the plugin too: its refusal comes from the ban, not from a missing right.
  await t.db.execute(
    sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (${pluginId}, ${personas.banned})`,
  );
  const reviewId = await insertedId(
    sql`INSERT INTO reviews (plugin_id, author_id, rating, text)
      VALUES (${pluginId}, ${personas.owner}, 4, 'Works') RETURNING id`,
  );
  const replyId = await insertedId(
    sql`INSERT INTO review_replies (review_id, author_id, text)
      VALUES (${reviewId}, ${personas.owner}, 'Thanks') RETURNING id`,
  );
  const versionId = await insertedId(
    sql`INSERT INTO plugin_versions (plugin_id, version, since_build, since_components, file_hash, file_size,
        file_name, author_id, approval_state)
      VALUES (${pluginId}, '1.0', '241', '{241}', 'no-file', 0, 'plugin.zip', ${personas.owner}, 'approved')
      RETURNING id`,
  );
  const screenshotId = await insertedId(
    sql`INSERT INTO plugin_screenshots (plugin_id, position, file_hash, content_type)
      VALUES (${pluginId}, 0, 'no-file', 'image/png') RETURNING id`,
  );
  await t.db.execute(
    sql`INSERT INTO plugin_documentation_tabs (plugin_id, tab_name, url_suffix, position, content_hash)
      VALUES (${pluginId}, 'Guide', 'guide', 0, 'no-file')`,
  );
  const noteId = await insertedId(
    sql`INSERT INTO admin_notes (plugin_id, author_id, text) VALUES (${pluginId}, ${personas.admin}, 'Check')
      RETURNING id`,
  );
  const token = await createApiToken(t.db, {
    userId: personas.owner,
    name: `revocable ${resourceCount}`,
    scopes: ['manage'],
  });
  // Selling: the plugin's vendor, an offer with a coupon, an application to a program, a scheduled price
  // change, and an order (bought by the owner persona) with its invoice.
  const vendorId = await insertedId(
    sql`INSERT INTO vendors (name) VALUES (${`Access Vendor ${resourceCount}`}) RETURNING id`,
  );
  await t.db.execute(sql`UPDATE plugins SET vendor_id = ${vendorId} WHERE id = ${pluginId}`);
  const offerId = await insertedId(
    sql`INSERT INTO offers (plugin_id, name, discount_kind, discount_value, valid_from, valid_until)
      VALUES (${pluginId}, 'Access offer', 'PERCENT', 10, now(), now() + interval '1 day') RETURNING id`,
  );
  const couponId = await insertedId(
    sql`INSERT INTO coupons (offer_id, code) VALUES (${offerId}, ${`ACCESS${resourceCount}`}) RETURNING id`,
  );
  const applicationId = await insertedId(
    sql`INSERT INTO program_applications (plugin_id, user_id, program, evidence)
      VALUES (${pluginId}, ${personas.developer}, 'STUDENTS', 'A student of the access school') RETURNING id`,
  );
  const priceChangeId = await insertedId(
    sql`INSERT INTO plugin_price_lists (plugin_id, effective_at) VALUES (${pluginId}, now() + interval '10 days')
      RETURNING id`,
  );
  const orderId = await insertedId(
    sql`INSERT INTO orders (buyer_id, plugin_id, license_kind, billing_period, quantity, licensee, country_code,
        currency, subtotal_minor, discount_minor, total_minor, lines, payment_provider)
      VALUES (${personas.owner}, ${pluginId}, 'PERSONAL', 'YEARLY', 1, 'Owner', 'DE', 'USD', 1000, 0, 1000, '[]',
        'invoice') RETURNING id`,
  );
  const invoiceId = await insertedId(
    sql`INSERT INTO invoices (order_id, number, amount_minor, currency, due_at)
      VALUES (${orderId}, ${`INV-ACCESS-${resourceCount}`}, 1000, 'USD', now() + interval '14 days') RETURNING id`,
  );
  // The exception analyzer: a group of error reports of the plugin.
  const exceptionGroupId = await insertedId(
    sql`INSERT INTO exception_groups (plugin_id, fingerprint, normalised_trace, exception_class)
      VALUES (${pluginId}, ${`access-${resourceCount}`}, 'java.lang.Error', 'java.lang.Error') RETURNING id`,
  );
  const customPageId = await insertedId(
    sql`INSERT INTO custom_pages (plugin_id, url, name) VALUES (${pluginId}, 'guide', 'Guide') RETURNING id`,
  );
  const customPageImageId = await insertedId(
    sql`INSERT INTO custom_page_images (page_id, name, file_hash, content_type, size)
      VALUES (${customPageId}, 'shot.png', ${'0'.repeat(64)}, 'image/png', 1) RETURNING id`,
  );
  const verificationId = await insertedId(
    sql`INSERT INTO verifications (version_id, plugin_id, types, verifier_version)
      VALUES (${versionId}, ${pluginId}, '{descriptor}', 'marketplace-checks/1') RETURNING id`,
  );
  const reportId = await insertedId(
    sql`INSERT INTO plugin_reports (plugin_id, review_id, reason) VALUES (${pluginId}, ${reviewId}, 'Spam')
      RETURNING id`,
  );
  // A namespace claim of the plugin's vendor, waiting for an administrator.
  const namespaceClaimId = await insertedId(
    sql`INSERT INTO trust_namespaces (prefix, vendor_id, dns_token, requested_by)
      VALUES (${`org.access${resourceCount}.`}, ${vendorId}, 'token', ${personas.owner}) RETURNING id`,
  );
  return {
    namespaceClaimId,
    reportId,
    customPageId,
    customPageImageId,
    verificationId,
    pluginId,
    reviewId,
    replyId,
    versionId,
    screenshotId,
    documentationSuffix: 'guide',
    noteId,
    tokenId: token.id,
    vendorId,
    offerId,
    couponId,
    applicationId,
    priceChangeId,
    orderId,
    invoiceId,
    exceptionGroupId,
  };
}

beforeAll(async () => {
  personas.banned = await t.addUser('banned-developer', { banned: true });
  personas.developer = await t.addUser('other-developer');
  personas.owner = await t.addUser('plugin-owner');
  personas.admin = await t.addUser('administrator', { isAdmin: true });
  // The developer persona is a developer: of a plugin of their own.
  await t.db.execute(
    sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved)
      VALUES ('intellij', 'org.example.other', 'Other Plugin', ${personas.developer}, 'published', true)`,
  );
  for (const persona of ['banned', 'developer', 'owner', 'admin'] as const) {
    const created = await createApiToken(t.db, {
      userId: personas[persona],
      name: 'access checks',
      scopes: ['upload', 'manage'],
    });
    permanentTokens.set(persona, created.token);
  }
});

async function credentialsOf(persona: Persona): Promise<Array<{ kind: string; header?: string }>> {
  if (persona === 'guest') return [{ kind: 'no token' }];
  return [
    { kind: 'sign-in token', header: await t.bearer(personas[persona]) },
    { kind: 'perm: token', header: `Bearer ${permanentTokens.get(persona)}` },
  ];
}

function refusalOf(response: LightMyRequestResponse): Refusal {
  if (response.statusCode !== 401 && response.statusCode !== 403) return undefined;
  let message = '';
  try {
    message = (response.json() as { message?: string }).message ?? '';
  } catch {
    message = response.body;
  }
  return { status: response.statusCode, message };
}

describe('the route table', () => {
  it('holds the routes that change data, reviews and account tokens among them', () => {
    const names = writeRoutes.map((route) => `${route.method} ${route.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/comments',
        'PUT /api/comments/:id',
        'DELETE /api/comments/:id',
        'POST /api/comments/:id/replies',
        'PUT /api/plugins/:id/rating',
        'POST /api/users/me/tokens',
        'DELETE /api/users/me/tokens/:id',
      ]),
    );
  });

  it('has an access rule on every route that changes data', () => {
    expect(writeRoutes.filter((route) => route.rule === undefined)).toEqual([]);
    expect(() =>
      expectedRefusal({ method: 'POST', url: '/api/new', rule: undefined, ownAuthorization: false }, 'owner'),
    ).toThrow('POST /api/new changes data but declares no access rule.');
  });

  it('can fill the path parameters of every such route', async () => {
    const resources = await freshResources();
    for (const route of writeRoutes) expect(() => concretePath(route.url, resources)).not.toThrow();
  });
});

describe.each(writeRoutes.map((route) => [`${route.method} ${route.url} (${route.rule})`, route] as const))(
  '%s',
  (_title, route) => {
    it('answers each persona as its declared rule says', async () => {
      const mismatches: string[] = [];
      const forRefusedCallers = await freshResources();
      for (const persona of PERSONAS) {
        // Whether a banned user may read an owner's page depends on what they develop or bought: not this rule's.
        if (persona === 'banned' && !isWriteMethod(route.method) && route.rule === 'owner') continue;
        const expected = expectedRefusal(route, persona);
        for (const credential of await credentialsOf(persona)) {
          // Fresh rows for every call that may act: an owner's DELETE must not change what the next caller
          // meets. Callers the rule refuses share one set (a refusal that did act fails on its status anyway).
          const resources = expected === undefined ? await freshResources() : forRefusedCallers;
          const url = concretePath(route.url, resources);
          const response = await t.app.inject({
            method: route.method as 'POST',
            url,
            headers: credential.header ? { authorization: credential.header } : {},
          });
          const actual = refusalOf(response);
          const asExpected =
            expected === undefined
              ? route.ownAuthorization
                ? ![SIGN_IN_REQUIRED, BANNED_MESSAGE, OWNER_ONLY, ADMIN_ONLY].includes(actual?.message ?? '')
                : actual === undefined
              : actual?.status === expected.status && actual.message === expected.message;
          if (!asExpected) {
            const wanted = expected ? `${expected.status} "${expected.message}"` : 'not 401/403';
            mismatches.push(
              `${persona} (${credential.kind}): expected ${wanted}, got ${response.statusCode} ` +
                response.body.slice(0, 200),
            );
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  },
);
