import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  FeatureDeleteQuery,
  FeatureFlagChangeSchema,
  FeatureFlagListSchema,
  FeatureFlagSchema,
  FeatureGroupsSchema,
  FeatureListQuery,
  FeatureNameParams,
  FeatureSearchQuery,
  FeatureStatisticSchema,
  MyFeaturesQuery,
  MyFeaturesSchema,
  type FeatureFlagChange,
  type FeatureGroups,
  type NewFeatureFlag,
  NewFeatureFlagSchema,
} from '@marketplace/api-contract';
import { BROWSER_ID_PATTERN, FEATURE_TYPES } from '@marketplace/core';
import { Type } from 'typebox';
import { signedInViewer } from '../../auth/authorization';
import { changeFlag, createFlag, deleteFlag, findFlag } from './repository';
import { loadStoredFlags, loadUsage, presentFlag, presentFlags } from './service';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const BASE = '/api/features';
const TAGS = ['admin'];
const ADMIN = { auth: { rule: 'admin' } } as const;

/** The `/api/features...` routes of spec §7 (see api-contract's admin-features.ts). */
export const featureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const features = app.features;

  const listed = async (keep: (flag: { name: string; description: string; type: string }) => boolean) =>
    presentFlags(db, (await loadStoredFlags(db)).filter(keep));

  app.get(
    BASE,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Every feature flag by name, of one type with ?type= (administrators)',
        querystring: FeatureListQuery,
        response: { 200: FeatureFlagListSchema, ...errors },
      },
    },
    async (request) => listed((flag) => !request.query.type || flag.type === request.query.type),
  );

  app.post(
    BASE,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Create a feature flag; 400 for a bad name, type or value, or a name taken (administrators)',
        body: NewFeatureFlagSchema,
        response: { 201: FeatureFlagSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      const flag = await createFlag(db, request.body as NewFeatureFlag, viewer.user.id);
      features.invalidate();
      return reply.code(201).send(await presentFlag(db, flag));
    },
  );

  app.get(
    `${BASE}/search`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Feature flags whose name or description holds the query (administrators)',
        querystring: FeatureSearchQuery,
        response: { 200: FeatureFlagListSchema, ...errors },
      },
    },
    async (request) => {
      const words = request.query.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
      const type = request.query.type;
      return listed((flag) => {
        if (type && flag.type !== type) return false;
        const text = `${flag.name} ${flag.description}`.toLowerCase();
        return words.every((word) => text.includes(word));
      });
    },
  );

  app.get(
    `${BASE}/group-by-types`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Every feature flag under its type (administrators)',
        response: { 200: FeatureGroupsSchema, ...errors },
      },
    },
    async () => {
      const groups = Object.fromEntries(FEATURE_TYPES.map((type) => [type, []])) as unknown as FeatureGroups;
      for (const flag of await listed(() => true)) groups[flag.type].push(flag);
      return groups;
    },
  );

  app.get(
    `${BASE}/statistic`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'How often each flag was evaluated and came out on, since its last change (administrators)',
        response: { 200: FeatureStatisticSchema, ...errors },
      },
    },
    async () => {
      // This process's counters first; other processes' arrive with their next flush.
      await features.flush();
      return { at: Date.now(), flags: await loadUsage(db) };
    },
  );

  app.get(
    `${BASE}/mine`,
    {
      config: { auth: { rule: 'public' } },
      schema: {
        tags: TAGS,
        summary: 'Every flag, on or off for the asking user (else the browser id, for sticky percentages)',
        querystring: MyFeaturesQuery,
        response: { 200: MyFeaturesSchema, 400: ErrorBody },
      },
    },
    async (request) => {
      const browser = request.query.browser;
      const browserId = browser && BROWSER_ID_PATTERN.test(browser) ? browser : undefined;
      return { flags: await features.allFor(request.viewer, browserId) };
    },
  );

  app.get(
    `${BASE}/:name`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'One feature flag (administrators)',
        params: FeatureNameParams,
        response: { 200: FeatureFlagSchema, ...errors },
      },
    },
    async (request) => presentFlag(db, await findFlag(db, request.params.name)),
  );

  app.put(
    `${BASE}/:name`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          'Change a flag’s type, value or description; 400 for a value not of its type (administrators)',
        params: FeatureNameParams,
        body: FeatureFlagChangeSchema,
        response: { 200: FeatureFlagSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      const flag = await changeFlag(
        db,
        request.params.name,
        request.body as FeatureFlagChange,
        viewer.user.id,
      );
      features.invalidate();
      return presentFlag(db, flag);
    },
  );

  app.delete(
    `${BASE}/:name`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Delete a flag: it is off for everyone from then on (administrators)',
        params: FeatureNameParams,
        querystring: FeatureDeleteQuery,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      await deleteFlag(db, request.params.name, request.query.reason, viewer.user.id);
      features.invalidate();
      return reply.code(204).send(null);
    },
  );
};
