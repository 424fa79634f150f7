import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  ExceptionGroupParams,
  ExceptionGroupSchema,
  ExceptionGroupsQuery,
  ExceptionGroupsSchema,
  ExceptionGroupSummarySchema,
  ExceptionReportIdText,
  ExceptionStatusBody,
  IdParams,
} from '@marketplace/api-contract';
import { EXCEPTION_LIMITS, EXCEPTION_REPORT_PATH } from '@marketplace/core';
import type { FastifyError } from 'fastify';
import { ApiError } from '../../plugins/app/errors';
import { managersOfPluginParam, viewerUserId } from '../../publishing/plugin-access';
import { decodeReportBody, readReportForm } from './receive';
import {
  fileReport,
  findReportedPlugin,
  InstallationHasher,
  listGroups,
  loadGroup,
  setGroupStatus,
} from './repository';

export interface ExceptionRoutesOptions {
  /** Reports accepted per minute from one client address (default: core's EXCEPTION_LIMITS). */
  reportsPerMinute: number;
}

const MEGABYTE = 1024 * 1024;
const FORM = 'application/x-www-form-urlencoded';

const notAForm = () =>
  new ApiError(
    'unsupportedMediaType',
    `Error reports are sent as a form (${FORM}), gzipped or plain, the way the IDE sends them.`,
  );

/** Fastify's own refusals of a body, said for the person who sent the report. */
const BODY_REFUSALS: Readonly<Record<string, () => ApiError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError(
      'payloadTooLarge',
      `The report is larger than ${EXCEPTION_LIMITS.compressedBytes / MEGABYTE} MB as sent, far more than an ` +
        'error report needs, so it was not kept.',
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: notAForm,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('badRequest', 'The report is not as long as its Content-Length header says.'),
};

/**
 * Where IDEs send a plugin's error reports (`POST /trackerRpc/idea/createScr`, answered with the report id
 * as plain text, which the IDE shows), in a scope of its own: it reads the raw (gzipped) form itself, with
 * its own body limit, rate limit and wording of refusals.
 */
export const reportReceiver: FastifyPluginAsyncTypebox<ExceptionRoutesOptions> = async (app, options) => {
  const hasher = new InstallationHasher(app.db);
  const limitReports = app.createRateLimit({
    max: options.reportsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `exception-report:${request.ip}`,
  });

  if (app.hasContentTypeParser(FORM)) app.removeContentTypeParser(FORM);
  // The body stays bytes here: it is usually gzip, decompressed with a cap by decodeReportBody.
  app.addContentTypeParser(
    FORM,
    { parseAs: 'buffer', bodyLimit: EXCEPTION_LIMITS.compressedBytes },
    (_request, body, done) => done(null, body),
  );
  // Anything else goes on to the application's error handler.
  app.setErrorHandler((error: FastifyError) => {
    const refusal = Object.hasOwn(BODY_REFUSALS, error.code) ? BODY_REFUSALS[error.code] : undefined;
    throw refusal ? refusal() : error;
  });

  app.post(
    EXCEPTION_REPORT_PATH,
    {
      // Anyone's IDE may report; reports count against their own limit per address, not the limit on writes,
      // and change nothing public (kept answers stay).
      config: { auth: { rule: 'public' }, writeLimit: false, readOnly: true },
      // The IDE's gzip is read by decodeReportBody, with a cap; the compression plugin must leave it alone.
      decompress: false,
      bodyLimit: EXCEPTION_LIMITS.compressedBytes,
      onRequest: async (request, reply) => {
        const result = await limitReports(request);
        if (!result.isAllowed && result.isExceeded) {
          reply.header('retry-after', String(result.ttlInSeconds));
          throw new ApiError(
            'tooManyRequests',
            `Too many error reports from your address. Please wait ${result.ttlInSeconds} seconds and send it again.`,
          );
        }
      },
      schema: {
        tags: ['insight'],
        summary: "Receive a plugin's error report from the IDE (ITNReporter); answers the report id as text",
        description:
          "The form the IDE's ITNProxy posts (`application/x-www-form-urlencoded; charset=UTF-8`, usually with " +
          '`Content-Encoding: gzip`): `plugin.id` (the plugin.xml id) and `error.stacktrace` are required; ' +
          "`plugin.version`, `error.message`, `error.description` (the user's comment), `app.build`, " +
          '`app.name.full`, `os.name`, `os.version`, `os.cpu.arch`, `java.version`, `java.vm.vendor`, ' +
          '`last.action`, `attachment.name`, `report.automatic` and `host.id` are read; the login, password, ' +
          'e-mail and attachment contents are not kept, and `host.id` only as a salted hash. ' +
          `Limits: ${EXCEPTION_LIMITS.compressedBytes / MEGABYTE} MB as sent, ` +
          `${EXCEPTION_LIMITS.decompressedBytes / MEGABYTE} MB decompressed, ` +
          `a ${EXCEPTION_LIMITS.stackTraceChars / MEGABYTE} MB stack trace.`,
        consumes: [FORM],
        produces: ['text/plain'],
        response: {
          200: ExceptionReportIdText,
          400: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      // JSON and plain text reach here parsed by the application's own parsers: not the IDE's form.
      if (request.body !== undefined && !Buffer.isBuffer(request.body)) throw notAForm();
      const body = request.body as Buffer | undefined;
      const text = await decodeReportBody(body, request.headers['content-encoding']);
      const report = readReportForm(text);
      const pluginId = await findReportedPlugin(app.db, report.pluginXmlId);
      if (pluginId === undefined) {
        throw new ApiError(
          'badRequest',
          `There is no plugin with the id "${report.pluginXmlId.slice(0, 100)}" on this marketplace, so the ` +
            'report cannot be filed. Check the id in plugin.xml and the address the reporter sends to.',
        );
      }
      const installation = report.hostId ? await hasher.hash(pluginId, report.hostId) : undefined;
      const reportId = await fileReport(app.db, pluginId, report, installation);
      request.log.info({ pluginId, reportId }, 'exception report filed');
      return reply.code(200).type('text/plain; charset=utf-8').send(String(reportId));
    },
  );
};

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const GROUPS = '/api/plugins/:id/exceptions';

/** The groups of a plugin's reports, for the item's people and administrators. */
export const exceptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const OWNER = { auth: { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } } as const;
  const noSuchGroup = (pluginId: number, groupId: number) =>
    new ApiError('notFound', `Plugin ${pluginId} has no exception group ${groupId}.`);

  app.get(
    GROUPS,
    {
      config: OWNER,
      schema: {
        tags: ['insight'],
        summary: "A plugin's exception groups, the most reported in the last 30 days first, a page at a time",
        params: IdParams,
        querystring: ExceptionGroupsQuery,
        response: { 200: ExceptionGroupsSchema, ...errors },
      },
    },
    async (request) => listGroups(app.db, request.params.id, request.query),
  );

  app.get(
    `${GROUPS}/:groupId`,
    {
      config: OWNER,
      schema: {
        tags: ['insight'],
        summary: 'One exception group: its latest full trace, the environments it came from, users’ comments',
        params: ExceptionGroupParams,
        response: { 200: ExceptionGroupSchema, ...errors },
      },
    },
    async (request) => {
      const { id, groupId } = request.params;
      const group = await loadGroup(app.db, id, groupId);
      if (!group) throw noSuchGroup(id, groupId);
      return group;
    },
  );

  app.put(
    `${GROUPS}/:groupId/status`,
    {
      config: OWNER,
      schema: {
        tags: ['insight'],
        summary: 'Mark an exception group new, investigating, fixed in a version, or ignored',
        params: ExceptionGroupParams,
        body: ExceptionStatusBody,
        response: { 200: ExceptionGroupSummarySchema, ...errors },
      },
    },
    async (request) => {
      const { id, groupId } = request.params;
      const { status } = request.body;
      const fixedInVersion = request.body.fixedInVersion?.trim() ?? '';
      if (status === 'fixed' && fixedInVersion === '') {
        throw new ApiError(
          'badRequest',
          'Say which version fixes it: "fixedInVersion" is required with status fixed.',
        );
      }
      if (status !== 'fixed' && fixedInVersion !== '') {
        throw new ApiError('badRequest', '"fixedInVersion" goes only with status fixed.');
      }
      const summary = await setGroupStatus(app.db, id, groupId, {
        status,
        fixedInVersion: status === 'fixed' ? fixedInVersion : null,
        userId: viewerUserId(request.viewer),
      });
      if (!summary) throw noSuchGroup(id, groupId);
      return summary;
    },
  );
};
