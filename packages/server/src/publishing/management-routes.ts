import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BuildBoundChangeBody,
  BuildBoundQuery,
  IdParams,
  PLUGIN_URL_FIELDS,
  PluginOrderBody,
  SetCompatibleProductsBody,
  SetPluginDevelopersBody,
  SetPluginTagsBody,
  UpdatePluginFieldsBody,
  UpdatePluginUrlsBody,
  type PluginUrlField,
} from '@marketplace/api-contract';
import {
  compareBuildNumbers,
  isChangeReason,
  isIdeProductKey,
  isPricingModel,
  isProgrammingLanguage,
  isValidWebsite,
  normalizeLink,
  parseBuildNumber,
  CHANGE_REASONS,
} from '@marketplace/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { buildBoundColumns } from '../db/catalogue-queries';
import { renameRefusal } from '../trust';
import type { Transaction } from '../db/client';
import {
  pluginCompatibleProducts,
  pluginDevelopers,
  pluginLinks,
  pluginOwnerOrder,
  plugins,
  pluginTags,
  pluginVersions,
  tags,
  users,
} from '../db/schema';
import { sellerOfPlugin } from '../commerce/sellers';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';
import { recordAudit } from './audit';
import {
  isAdministrator,
  loadPluginState,
  managersOfPluginParam,
  pluginManagers,
  viewerUserId,
} from './plugin-access';
import { sanitizeDocumentHtml } from './sanitize';

/** The distinct non-empty entries of a list body, bare or wrapped under `key` (see SetPluginTagsBody). */
function listOf(body: unknown, key: string): string[] {
  const items = Array.isArray(body) ? body : ((body as Record<string, unknown>)[key] as unknown[]);
  return [...new Set(items.map((item) => String(item).trim()).filter((item) => item !== ''))];
}

function checkedLink(field: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === '') return null;
  if (!isValidWebsite(value))
    throw new ApiError('badRequest', `"${value}" is not a valid address for ${field}.`);
  return normalizeLink(value);
}

/** The owner's management API: plugin fields, links, tags, developers, compatibility, build ranges, order. */
const managementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const OWNER = { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } as const;

  /**
   * Runs a change of a plugin in one transaction with its audit entry, after checking that the plugin may
   * be changed by this viewer (blocked plugins and disallowed access stop developers, not administrators).
   */
  async function changePlugin<T>(
    request: FastifyRequest,
    pluginId: number,
    action: string,
    change: (tx: Transaction) => Promise<{ result: T; details?: Record<string, unknown> }>,
  ): Promise<T> {
    return app.db.transaction(async (tx) => {
      const state = await loadPluginState(tx, pluginId, { forUpdate: true });
      if (!state || state.lifecycleState === 'deleted') {
        throw new ApiError('notFound', `Plugin ${pluginId} does not exist.`);
      }
      if (!isAdministrator(request.viewer)) {
        if (state.blockState === 'blocked') {
          throw new ApiError(
            'conflict',
            'The plugin is blocked by the administrators, so it cannot be changed.',
          );
        }
        if (!state.modificationAllowed) {
          throw new ApiError(
            'conflict',
            'Changes to this plugin are not allowed at the moment (access was disallowed by an administrator).',
          );
        }
      }
      const { result, details } = await change(tx);
      await recordAudit(tx, {
        pluginId,
        actorId: viewerUserId(request.viewer),
        action,
        details: details ?? {},
      });
      return result;
    });
  }

  app.put(
    '/api/plugins/:id',
    {
      config: { auth: OWNER },
      schema: {
        tags: ['management'],
        summary: "Change the plugin's fields",
        params: IdParams,
        body: UpdatePluginFieldsBody,
      },
    },
    async (request) => {
      const body = request.body;
      const values: Partial<typeof plugins.$inferInsert> = {};
      if (body.name !== undefined) {
        if (body.name.trim() === '') throw new ApiError('badRequest', 'The name cannot be empty.');
        values.name = body.name.trim();
        // A rename meets the look-alike rules of a new name (src/trust); flagged names are the upload's concern.
        const refusal = await renameRefusal(
          app.db,
          request.params.id,
          values.name,
          viewerUserId(request.viewer),
        );
        if (refusal !== undefined) throw new ApiError('badRequest', refusal);
      }
      if (body.description !== undefined) values.description = sanitizeDocumentHtml(body.description);
      if (body.preview !== undefined)
        values.preview = body.preview === null ? null : sanitizeDocumentHtml(body.preview);
      if (body.docText !== undefined)
        values.docText = body.docText === null ? null : sanitizeDocumentHtml(body.docText);
      if (body.copyright !== undefined) values.copyright = body.copyright?.trim() || null;
      if (body.email !== undefined) {
        const email = body.email?.trim() || null;
        if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          throw new ApiError('badRequest', `"${email}" is not an e-mail address.`);
        }
        values.email = email;
      }
      if (body.pricingModel !== undefined) {
        if (!isPricingModel(body.pricingModel)) {
          throw new ApiError('badRequest', 'The pricing model must be one of PAID, FREEMIUM, FREE.');
        }
        if (body.pricingModel !== 'FREE') {
          const seller = await sellerOfPlugin(app.db, request.params.id);
          if (seller.status !== 'APPROVED') {
            throw new ApiError(
              'badRequest',
              `Only approved sellers can make an item ${body.pricingModel === 'PAID' ? 'paid' : 'freemium'}: apply to sell for this item's vendor first${seller.status === 'PENDING' ? ' (the application is waiting for an administrator)' : ''}.`,
            );
          }
        }
        values.pricingModel = body.pricingModel;
      }
      if (body.language !== undefined) values.language = body.language?.trim() || null;
      if (body.programmingLanguage !== undefined) {
        if (body.programmingLanguage !== null && !isProgrammingLanguage(body.programmingLanguage)) {
          throw new ApiError(
            'badRequest',
            `"${body.programmingLanguage}" is not a known programming language.`,
          );
        }
        values.programmingLanguage = body.programmingLanguage;
      }
      for (const field of PLUGIN_URL_FIELDS) {
        const link = checkedLink(field, body[field]);
        if (link !== undefined) values[field] = link;
      }
      if (Object.keys(values).length === 0) throw new ApiError('badRequest', 'The request changes no field.');
      return changePlugin(request, request.params.id, 'update-fields', async (tx) => {
        await tx.update(plugins).set(values).where(eq(plugins.id, request.params.id));
        return { result: { id: request.params.id, ...values }, details: { fields: Object.keys(values) } };
      });
    },
  );

  app.put(
    '/api/plugins/:id/urls',
    {
      config: { auth: OWNER },
      schema: {
        tags: ['management'],
        summary: 'Links, donation links and custom contacts',
        params: IdParams,
        body: UpdatePluginUrlsBody,
      },
    },
    async (request) => {
      const body = request.body;
      const values: Partial<Record<PluginUrlField, string | null>> = {};
      for (const field of PLUGIN_URL_FIELDS) {
        const link = checkedLink(field, body[field]);
        if (link !== undefined) values[field] = link;
      }
      const donations = (body.donationLinks ?? []).map((link, index) => {
        const url = checkedLink(`donation link ${index + 1}`, link.url);
        if (!url || link.name.trim() === '') {
          throw new ApiError('badRequest', `Donation link ${index + 1} needs a name and an address.`);
        }
        return { title: link.name.trim(), url };
      });
      const contacts = (body.customContacts ?? []).map((contact, index) => {
        const url = checkedLink(`custom contact ${index + 1}`, contact.link);
        if (!url || contact.title.trim() === '') {
          throw new ApiError('badRequest', `Custom contact ${index + 1} needs a title and an address.`);
        }
        return { title: contact.title.trim(), url };
      });
      return changePlugin(request, request.params.id, 'update-urls', async (tx) => {
        const pluginId = request.params.id;
        if (Object.keys(values).length > 0)
          await tx.update(plugins).set(values).where(eq(plugins.id, pluginId));
        if (body.donationLinks !== undefined) {
          await tx
            .delete(pluginLinks)
            .where(and(eq(pluginLinks.pluginId, pluginId), eq(pluginLinks.kind, 'donation')));
          if (donations.length > 0) {
            await tx.insert(pluginLinks).values(
              donations.map((link, position) => ({
                pluginId,
                kind: 'donation' as const,
                position,
                ...link,
              })),
            );
          }
        }
        if (body.customContacts !== undefined) {
          await tx
            .delete(pluginLinks)
            .where(and(eq(pluginLinks.pluginId, pluginId), eq(pluginLinks.kind, 'custom_contact')));
          if (contacts.length > 0) {
            await tx.insert(pluginLinks).values(
              contacts.map((link, position) => ({
                pluginId,
                kind: 'custom_contact' as const,
                position,
                ...link,
              })),
            );
          }
        }
        return {
          result: {
            ...values,
            donationLinks: donations.map(({ title, url }) => ({ name: title, url })),
            customContacts: contacts.map(({ title, url }) => ({ title, link: url })),
          },
          details: {
            fields: Object.keys(values),
            donationLinks: donations.length,
            customContacts: contacts.length,
          },
        };
      });
    },
  );

  app.post(
    '/api/plugins/:id/tags',
    {
      config: { auth: OWNER },
      schema: {
        tags: ['management'],
        summary: 'Set the tags (ids or names, as strings)',
        params: IdParams,
        body: SetPluginTagsBody,
      },
    },
    async (request) => {
      const wanted = listOf(request.body, 'tags');
      const numeric = wanted.filter((tag) => /^\d{1,9}$/.test(tag)).map(Number);
      const found =
        wanted.length === 0
          ? []
          : await app.db
              .select()
              .from(tags)
              .where(
                sql`${tags.name} IN ${wanted}${numeric.length > 0 ? sql` OR ${inArray(tags.id, numeric)}` : sql``}`,
              );
      const unknown = wanted.filter(
        (tag) => !found.some((row) => row.name === tag || String(row.id) === tag),
      );
      if (unknown.length > 0) throw new ApiError('badRequest', `Unknown tags: ${unknown.join(', ')}.`);
      const privileged = found.filter((row) => row.privileged);
      if (privileged.length > 0 && !isAdministrator(request.viewer)) {
        // Developers may keep the privileged tags an administrator gave (the form sends every tag back).
        const given = await app.db
          .select({ tagId: pluginTags.tagId })
          .from(pluginTags)
          .where(eq(pluginTags.pluginId, request.params.id));
        const added = privileged.filter((row) => !given.some((tag) => tag.tagId === row.id));
        if (added.length > 0) {
          throw new ApiError(
            'forbidden',
            `Only administrators can give the tags ${added.map((row) => row.name).join(', ')}.`,
          );
        }
      }
      return changePlugin(request, request.params.id, 'update-tags', async (tx) => {
        const pluginId = request.params.id;
        await tx.delete(pluginTags).where(eq(pluginTags.pluginId, pluginId));
        if (found.length > 0) {
          await tx.insert(pluginTags).values(found.map((row) => ({ pluginId, tagId: row.id })));
        }
        const result = found.map((row) => ({ id: row.id, name: row.name }));
        return { result, details: { tags: result.map((tag) => tag.name) } };
      });
    },
  );

  app.post(
    '/api/plugins/:id/developers',
    {
      config: { auth: OWNER },
      schema: {
        tags: ['management'],
        summary: 'Set the developers (logins or user ids) besides the owner',
        params: IdParams,
        body: SetPluginDevelopersBody,
      },
    },
    async (request) => {
      const wanted = listOf(request.body, 'developers');
      const numeric = wanted.filter((entry) => /^\d{1,9}$/.test(entry)).map(Number);
      const found =
        wanted.length === 0
          ? []
          : await app.db
              .select({ id: users.id, login: users.login, name: users.name, banned: users.banned })
              .from(users)
              .where(
                sql`${users.login} IN ${wanted}${numeric.length > 0 ? sql` OR ${inArray(users.id, numeric)}` : sql``}`,
              );
      const unknown = wanted.filter(
        (entry) => !found.some((row) => row.login === entry || String(row.id) === entry),
      );
      if (unknown.length > 0) throw new ApiError('badRequest', `Unknown users: ${unknown.join(', ')}.`);
      const banned = found.filter((row) => row.banned);
      if (banned.length > 0) {
        throw new ApiError(
          'badRequest',
          `Banned users cannot be developers: ${banned.map((row) => row.login).join(', ')}.`,
        );
      }
      return changePlugin(request, request.params.id, 'update-developers', async (tx) => {
        const pluginId = request.params.id;
        await tx.delete(pluginDevelopers).where(eq(pluginDevelopers.pluginId, pluginId));
        if (found.length > 0) {
          await tx.insert(pluginDevelopers).values(found.map((row) => ({ pluginId, userId: row.id })));
        }
        const result = found.map(({ id, login, name }) => ({ id, login, name }));
        return { result, details: { developers: result.map((user) => user.id) } };
      });
    },
  );

  app.post(
    '/api/plugins/:id/compatibility',
    {
      config: { auth: OWNER },
      schema: {
        tags: ['management'],
        summary: 'Set the compatible IDE products (product keys such as IDEA, PYCHARM)',
        params: IdParams,
        body: SetCompatibleProductsBody,
      },
    },
    async (request) => {
      const products = listOf(request.body, 'products');
      const unknown = products.filter((product) => !isIdeProductKey(product));
      if (unknown.length > 0)
        throw new ApiError('badRequest', `Unknown IDE products: ${unknown.join(', ')}.`);
      return changePlugin(request, request.params.id, 'update-compatibility', async (tx) => {
        const pluginId = request.params.id;
        await tx.delete(pluginCompatibleProducts).where(eq(pluginCompatibleProducts.pluginId, pluginId));
        if (products.length > 0) {
          await tx
            .insert(pluginCompatibleProducts)
            .values(products.map((product) => ({ pluginId, product })));
        }
        return { result: products, details: { products } };
      });
    },
  );

  // since/until of one version, with the reason for the change (spec's CHANGE_REASONS).
  const versionManagers = async (request: FastifyRequest) => {
    const id = Number((request.params as { id?: unknown }).id);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const [row] = await app.db
      .select({ pluginId: pluginVersions.pluginId })
      .from(pluginVersions)
      .where(eq(pluginVersions.id, id));
    return row ? pluginManagers(app.db, row.pluginId) : undefined;
  };
  for (const bound of ['since', 'until'] as const) {
    app.put(
      `/api/updates/:id/${bound}`,
      {
        config: { auth: { rule: 'owner', ownerOf: versionManagers } },
        schema: {
          tags: ['management'],
          summary: `Change the ${bound}-build of a version, saying why`,
          params: IdParams,
          querystring: BuildBoundQuery,
          body: BuildBoundChangeBody,
        },
      },
      async (request) => {
        const { reason, comment } = request.body;
        if (!isChangeReason(reason)) {
          throw new ApiError('badRequest', `The reason must be one of ${CHANGE_REASONS.join(', ')}.`);
        }
        const value = request.query.value.trim();
        if (value !== '' && !parseBuildNumber(value)) {
          throw new ApiError('badRequest', `"${value}" is not a build number (e.g. 241 or 243.*).`);
        }
        if (bound === 'since' && value === '')
          throw new ApiError('badRequest', 'A version needs a since-build.');
        const [version] = await app.db
          .select()
          .from(pluginVersions)
          .where(eq(pluginVersions.id, request.params.id));
        if (!version) throw new ApiError('notFound', `Version ${request.params.id} does not exist.`);
        const since = bound === 'since' ? value : version.sinceBuild;
        const until = bound === 'until' ? value || null : version.untilBuild;
        if (until !== null && compareBuildNumbers(since, until) > 0) {
          throw new ApiError('badRequest', `The since-build ${since} is after the until-build ${until}.`);
        }
        return changePlugin(request, version.pluginId, `change-${bound}-build`, async (tx) => {
          await tx
            .update(pluginVersions)
            .set({ sinceBuild: since, untilBuild: until, ...buildBoundColumns(since, until) })
            .where(eq(pluginVersions.id, version.id));
          return {
            result: { id: version.id, since, until: until ?? '' },
            details: {
              versionId: version.id,
              from: bound === 'since' ? version.sinceBuild : version.untilBuild,
              to: bound === 'since' ? since : until,
              reason,
              ...(comment ? { comment } : {}),
            },
          };
        });
      },
    );
  }

  app.put(
    '/api/plugins/order',
    {
      config: { auth: { rule: 'signed-in' } },
      schema: {
        tags: ['management'],
        summary: 'The order of your plugins on your pages (plugin ids, first first)',
        body: PluginOrderBody,
      },
    },
    async (request, reply) => {
      const userId = viewerUserId(request.viewer);
      if (userId === null) throw new ApiError('unauthorized', 'Please sign in to do this.');
      const ids = request.body;
      if (new Set(ids).size !== ids.length) throw new ApiError('badRequest', 'A plugin is listed twice.');
      if (ids.length > 0) {
        const managed = await selectRows<{ id: number }>(
          app.db,
          sql`SELECT p.id FROM plugins p WHERE p.id IN ${ids} AND p.lifecycle_state <> 'deleted'
            AND (p.owner_id = ${userId} OR EXISTS (
              SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${userId}))`,
        );
        const foreign = ids.filter((id) => !managed.some((row) => row.id === id));
        if (foreign.length > 0) {
          throw new ApiError('badRequest', `You do not manage the plugins ${foreign.join(', ')}.`);
        }
      }
      await app.db.transaction(async (tx) => {
        await tx.delete(pluginOwnerOrder).where(eq(pluginOwnerOrder.userId, userId));
        if (ids.length > 0) {
          await tx
            .insert(pluginOwnerOrder)
            .values(ids.map((pluginId, position) => ({ userId, pluginId, position })));
        }
      });
      return reply.code(204).send();
    },
  );
};

export default managementRoutes;
