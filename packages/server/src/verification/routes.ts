import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  FalsePositiveDeleteQuery,
  FalsePositiveInputSchema,
  FalsePositiveListSchema,
  FalsePositiveSchema,
  IdParams,
  UpdateProductsSchema,
  UpdateVerificationSchema,
  VerificationComparisonSchema,
  VerificationJobSchema,
  VerificationQueueQuery,
  VerificationQueueSchema,
  VerificationSchema,
  VerificationSummaryListSchema,
  VerificationTypeQuery,
  VerifierVersionSchema,
  type FalsePositive,
  type VerificationProblem,
} from '@marketplace/api-contract';
import { claimedTargets, VERIFICATION_TYPES } from '@marketplace/core';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { signedInViewer } from '../auth/authorization';
import type { Database } from '../db/client';
import { verificationFalsePositives, verifications } from '../db/schema';
import { ApiError } from '../plugins/app/errors';
import { managersOfPluginParam, pluginManagers, viewerUserId } from '../publishing/plugin-access';
import { externalVerifierVersion } from './external-verifier';
import { enqueueVerification } from './queue';
import {
  currentVerificationId,
  falsePositiveBody,
  findingWithPlugin,
  loadJobs,
  loadVerification,
  loadVerifications,
  loadVersionFacts,
  pluginOfVerification,
  pluginOfVersion,
  pluginVerificationIds,
  previousVerificationId,
  summaryOf,
} from './repository';
import { verifierVersionOf, type VerificationEnvironment } from './worker';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const BASE = '/api/verifications';
const TAGS = ['verification'];

function idParam(request: FastifyRequest): number | undefined {
  const id = Number((request.params as { id?: unknown }).id);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/** The item's people of the plugin a `:id` path parameter leads to (via `pluginOf`); undefined: 404. */
function managersVia(db: Database, pluginOf: (db: Database, id: number) => Promise<number | undefined>) {
  return async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
    const id = idParam(request);
    if (id === undefined) return undefined;
    const pluginId = await pluginOf(db, id);
    return pluginId === undefined ? undefined : pluginManagers(db, pluginId);
  };
}

const sameFinding = (a: VerificationProblem, b: VerificationProblem) =>
  a.fingerprint === b.fingerprint && a.severity === b.severity;

/** The `/api/verifications/...` routes of spec §7. */
export const verificationRoutes =
  (env: VerificationEnvironment): FastifyPluginAsyncTypebox =>
  async (app) => {
    const db = app.db;
    const OF_PLUGIN = { auth: { rule: 'owner', ownerOf: managersOfPluginParam(db) } } as const;
    const OF_VERSION = { auth: { rule: 'owner', ownerOf: managersVia(db, pluginOfVersion) } } as const;
    const OF_VERIFICATION = {
      auth: { rule: 'owner', ownerOf: managersVia(db, pluginOfVerification) },
    } as const;
    const ADMIN = { auth: { rule: 'admin' } } as const;

    async function requireVerification(id: number, type?: (typeof VERIFICATION_TYPES)[number]) {
      const verification = await loadVerification(db, id, type === undefined ? {} : { type });
      if (!verification) throw new ApiError('notFound', `There is no verification ${id}.`);
      return verification;
    }

    app.get(
      BASE,
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'The verification queue: jobs newest first, filtered by state (administrators)',
          querystring: VerificationQueueQuery,
          response: { 200: VerificationQueueSchema, ...errors },
        },
      },
      async (request) => loadJobs(db, request.query),
    );

    app.get(
      `${BASE}/intellij-verifier-version`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: TAGS,
          summary:
            'The checks every version goes through, and the external IntelliJ Plugin Verifier’s version',
          response: { 200: VerifierVersionSchema },
        },
      },
      async () => {
        const external = env.options.external;
        return {
          verifierVersion: verifierVersionOf(env),
          types: VERIFICATION_TYPES.filter((type) => type !== 'plugin-verifier' || external !== undefined),
          external: {
            configured: external !== undefined,
            version: external ? externalVerifierVersion(external.jar) : null,
            timeoutSeconds: external ? Math.round(external.timeoutMs / 1000) : 0,
          },
        };
      },
    );

    app.get(
      `${BASE}/application/:id`,
      {
        config: OF_PLUGIN,
        schema: {
          tags: TAGS,
          summary: 'The current verification of each version of a plugin, newest version first',
          params: IdParams,
          response: { 200: VerificationSummaryListSchema, ...errors },
        },
      },
      async (request) =>
        (await loadVerifications(db, await pluginVerificationIds(db, request.params.id))).map(summaryOf),
    );

    app.get(
      `${BASE}/update/:id`,
      {
        config: OF_VERSION,
        schema: {
          tags: TAGS,
          summary:
            'A version’s newest verification job and current verification; verificationType keeps one check’s findings',
          params: IdParams,
          querystring: VerificationTypeQuery,
          response: { 200: UpdateVerificationSchema, ...errors },
        },
      },
      async (request) => {
        const updateId = request.params.id;
        const type = request.query.verificationType;
        const [jobs, currentId] = await Promise.all([
          loadJobs(db, { versionId: updateId, max: 1, offset: 0 }),
          currentVerificationId(db, updateId),
        ]);
        const verification =
          currentId === undefined
            ? null
            : ((await loadVerification(db, currentId, type === undefined ? {} : { type })) ?? null);
        return { updateId, job: jobs.jobs[0] ?? null, verification };
      },
    );

    app.post(
      `${BASE}/update/:id`,
      {
        config: OF_VERSION,
        schema: {
          tags: TAGS,
          summary:
            'Verify a version again: answers 202 with the queued job (the one already waiting, if any)',
          params: IdParams,
          response: { 202: VerificationJobSchema, ...errors },
        },
      },
      async (request, reply) => {
        const jobId = await enqueueVerification(db, request.params.id, {
          requestedBy: viewerUserId(request.viewer),
          maxAttempts: env.options.maxAttempts,
        });
        const { jobs } = await loadJobs(db, { versionId: request.params.id, max: 5, offset: 0 });
        const job = jobs.find((candidate) => candidate.id === jobId);
        if (!job) throw new Error(`The queued job ${jobId} could not be read back.`);
        request.log.info({ jobId, versionId: request.params.id }, 'verification requested');
        return reply.code(202).send(job);
      },
    );

    app.get(
      `${BASE}/update/:id/products`,
      {
        config: OF_VERSION,
        schema: {
          tags: TAGS,
          summary:
            'The product builds a version claims (newest build of each branch in its range), with their status',
          params: IdParams,
          response: { 200: UpdateProductsSchema, ...errors },
        },
      },
      async (request) => {
        const version = await loadVersionFacts(db, request.params.id);
        if (!version) throw new ApiError('notFound', `There is no version ${request.params.id}.`);
        const currentId = await currentVerificationId(db, version.id);
        const current = currentId === undefined ? undefined : await loadVerification(db, currentId);
        const claimed = claimedTargets(version.sinceBuild, version.untilBuild);
        const extra = (current?.results ?? []).filter(
          (result) => !claimed.some((target) => target.productBuild === result.productBuild),
        );
        return {
          updateId: version.id,
          since: version.sinceBuild,
          until: version.untilBuild ?? '',
          products: [...claimed, ...extra].map((target) => ({
            productBuild: target.productBuild,
            productName: target.productName,
            branch: target.branch,
            release: target.release,
            javaLevel: target.javaLevel,
            status:
              current?.results.find((result) => result.productBuild === target.productBuild)?.status ?? null,
          })),
        };
      },
    );

    app.post(
      `${BASE}/discard/:id`,
      {
        config: OF_VERIFICATION,
        schema: {
          tags: TAGS,
          summary:
            'Set a verification aside: it stays readable but is no longer its version’s result (409 if already discarded)',
          params: IdParams,
          response: { 200: VerificationSchema, 409: ErrorBody, ...errors },
        },
      },
      async (request) => {
        const [row] = await db
          .update(verifications)
          .set({ discardedAt: new Date(), discardedBy: viewerUserId(request.viewer) })
          .where(and(eq(verifications.id, request.params.id), isNull(verifications.discardedAt)))
          .returning({ id: verifications.id });
        if (!row) {
          await requireVerification(request.params.id);
          throw new ApiError('conflict', 'This verification has already been discarded.');
        }
        request.log.info({ verificationId: row.id }, 'verification discarded');
        return requireVerification(row.id);
      },
    );

    app.get(
      `${BASE}/:id`,
      {
        config: OF_VERIFICATION,
        schema: {
          tags: TAGS,
          summary:
            'One verification: status per product build and every finding; verificationType keeps one check’s',
          params: IdParams,
          querystring: VerificationTypeQuery,
          response: { 200: VerificationSchema, ...errors },
        },
      },
      async (request) => requireVerification(request.params.id, request.query.verificationType),
    );

    app.get(
      `${BASE}/:id/previous`,
      {
        config: OF_VERIFICATION,
        schema: {
          tags: TAGS,
          summary:
            'A verification compared with the current one of the version uploaded before it in the same channel',
          params: IdParams,
          response: { 200: VerificationComparisonSchema, ...errors },
        },
      },
      async (request) => {
        const current = await requireVerification(request.params.id);
        const previousId = await previousVerificationId(db, current.id);
        const previous = previousId === undefined ? null : ((await loadVerification(db, previousId)) ?? null);
        const before = previous?.findings ?? [];
        return {
          current,
          previous,
          newFindings: current.findings.filter((finding) => !before.some((old) => sameFinding(old, finding))),
          resolvedFindings: before.filter(
            (old) => !current.findings.some((finding) => sameFinding(old, finding)),
          ),
          unchangedFindings: current.findings.filter((finding) =>
            before.some((old) => sameFinding(old, finding)),
          ),
        };
      },
    );

    async function markFalsePositive(
      request: FastifyRequest,
      input: { problemId: number; reason?: string | undefined },
      scope: 'plugin' | 'global',
    ): Promise<FalsePositive> {
      const viewer = signedInViewer(request);
      const found = await findingWithPlugin(db, input.problemId);
      if (!found) throw new ApiError('notFound', `There is no finding ${input.problemId}.`);
      if (scope === 'plugin' && !viewer.isAdmin) {
        const managers = (await pluginManagers(db, found.pluginId)) ?? [];
        if (!managers.includes(viewer.user.id)) {
          throw new ApiError(
            'forbidden',
            'Only the developers of the plugin this finding belongs to and administrators can mark it.',
          );
        }
      }
      const [row] = await db
        .insert(verificationFalsePositives)
        .values({
          pluginId: scope === 'plugin' ? found.pluginId : null,
          type: found.finding.type,
          kind: found.finding.kind,
          fingerprint: found.finding.fingerprint,
          message: found.finding.message,
          reason: input.reason?.trim() ?? '',
          markedBy: viewer.user.id,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) {
        throw new ApiError(
          'conflict',
          scope === 'plugin'
            ? 'This finding is already marked a false positive for the plugin.'
            : 'This finding is already marked a false positive for every plugin.',
        );
      }
      request.log.info(
        { falsePositiveId: row.id, scope, problemId: input.problemId },
        'false positive marked',
      );
      return falsePositiveBody(row);
    }

    app.post(
      `${BASE}/false-positive`,
      {
        config: { auth: { rule: 'signed-in' } },
        schema: {
          tags: TAGS,
          summary:
            'Mark a finding a false positive for its plugin (the plugin’s developers and administrators); ' +
            'it then counts for nothing in every version of the plugin',
          body: FalsePositiveInputSchema,
          response: { 201: FalsePositiveSchema, 409: ErrorBody, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await markFalsePositive(request, request.body, 'plugin')),
    );

    app.delete(
      `${BASE}/false-positive`,
      {
        config: { auth: { rule: 'signed-in' } },
        schema: {
          tags: TAGS,
          summary:
            'Unmark a false positive (?id=): a plugin’s by its developers or administrators, a global one by administrators',
          querystring: FalsePositiveDeleteQuery,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        const viewer = signedInViewer(request);
        const [row] = await db
          .select()
          .from(verificationFalsePositives)
          .where(eq(verificationFalsePositives.id, request.query.id));
        if (!row) throw new ApiError('notFound', `There is no false positive ${request.query.id}.`);
        const managers = row.pluginId === null ? [] : ((await pluginManagers(db, row.pluginId)) ?? []);
        if (!viewer.isAdmin && !managers.includes(viewer.user.id)) {
          throw new ApiError(
            'forbidden',
            row.pluginId === null
              ? 'Only administrators can unmark a global false positive.'
              : 'Only the developers of the plugin and administrators can unmark its false positives.',
          );
        }
        await db.delete(verificationFalsePositives).where(eq(verificationFalsePositives.id, row.id));
        request.log.info({ falsePositiveId: row.id }, 'false positive unmarked');
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${BASE}/false-positive/global`,
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Findings marked false positives for every plugin (administrators)',
          response: { 200: FalsePositiveListSchema, ...errors },
        },
      },
      async () =>
        (
          await db
            .select()
            .from(verificationFalsePositives)
            .where(isNull(verificationFalsePositives.pluginId))
            .orderBy(desc(verificationFalsePositives.id))
        ).map(falsePositiveBody),
    );

    app.post(
      `${BASE}/false-positive/global`,
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Mark a finding a false positive for every plugin (administrators)',
          body: FalsePositiveInputSchema,
          response: { 201: FalsePositiveSchema, 409: ErrorBody, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await markFalsePositive(request, request.body, 'global')),
    );

    app.get(
      `${BASE}/false-positive/plugin/:id`,
      {
        config: OF_PLUGIN,
        schema: {
          tags: TAGS,
          summary:
            'Findings marked false positives for a plugin (global ones are listed by false-positive/global)',
          params: IdParams,
          response: { 200: FalsePositiveListSchema, ...errors },
        },
      },
      async (request) =>
        (
          await db
            .select()
            .from(verificationFalsePositives)
            .where(eq(verificationFalsePositives.pluginId, request.params.id))
            .orderBy(desc(verificationFalsePositives.id))
        ).map(falsePositiveBody),
    );
  };
