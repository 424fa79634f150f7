import type { UploadedPluginBody, UploadedVersionBody } from '@marketplace/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outageOf } from '../outage';
import { ApiError } from '../plugins/app/errors';
import { attachScanner } from '../trust/scanning/service';
import { readUploadForm, UploadRefusal, type FormFields, type UploadForm } from './upload-form';
import {
  authorizeVersionUpload,
  uploadNewPlugin,
  uploadVersion,
  type UploadEnvironment,
} from './upload-service';

const UPLOAD_RULE = { rule: 'signed-in', scope: 'upload' } as const;

/**
 * An update upload whose fields name its plugin before the file is decided there and then: someone who may
 * not upload to that plugin is refused (403, or 409 when it is blocked) before the archive is read. A plugin
 * not found by xml id is not refused early when no family was sent yet: the family may follow the file.
 */
async function refuseEarly(
  env: UploadEnvironment,
  fields: FormFields,
  uploader: { userId: number; isAdmin: boolean },
): Promise<void> {
  if (fields.get('pluginId') === undefined && fields.get('xmlId') === undefined) return;
  try {
    await authorizeVersionUpload(env.db, fields, uploader);
  } catch (error) {
    const familyMayFollow = fields.get('pluginId') === undefined && fields.get('family') === undefined;
    if (error instanceof UploadRefusal && error.statusCode === 404 && familyMayFollow) return;
    throw error;
  }
}

/** An outage answered as an upload result too, which the vendor's tooling reads (`errors`, `msg`). */
function outageBody(message: string) {
  return { type: 'error', message, msg: message, errors: [message], warnings: [], isErrorUnknown: false };
}

/** Stops the multipart parser and lets the rest of the request body flow by, unread and unstored. */
function discardRestOfBody(request: FastifyRequest): void {
  if (request.raw.complete) return;
  request.raw.unpipe();
  request.raw.resume();
}

/**
 * The upload endpoints the vendor's Gradle tooling and REST client call (reference §3): a new version by
 * plugin id or xml id, the legacy path of old tooling, and a new plugin. Multipart, streamed to disk.
 */
export async function uploadRoutes(
  app: FastifyInstance,
  environment: (request: FastifyRequest) => UploadEnvironment,
): Promise<void> {
  // Every accepted version waits for its scan (src/trust/scanning) before visitors are offered it: the
  // scanner is nudged as soon as the upload has committed, so that the scan normally ends within moments.
  const scanner = attachScanner(app);
  async function handle(
    request: FastifyRequest,
    reply: FastifyReply,
    run: (
      env: UploadEnvironment,
      form: UploadForm,
      uploader: { userId: number; isAdmin: boolean },
    ) => Promise<UploadedVersionBody | UploadedPluginBody>,
    beforeFile?: (
      env: UploadEnvironment,
      fields: FormFields,
      uploader: { userId: number; isAdmin: boolean },
    ) => Promise<void>,
  ) {
    const viewer = request.viewer;
    if (viewer.kind !== 'user') throw new ApiError('unauthorized', 'Please sign in to do this.');
    const env = environment(request);
    let form: UploadForm | undefined;
    let outcome: { status: number; body: unknown };
    try {
      const uploader = { userId: viewer.user.id, isAdmin: viewer.isAdmin };
      form = await readUploadForm(request, {
        maxBytes: env.options.maxUploadBytes,
        tempDir: env.tempDir,
        ...(beforeFile ? { beforeFile: (fields: FormFields) => beforeFile(env, fields, uploader) } : {}),
      });
      outcome = { status: 200, body: await run(env, form, uploader) };
      scanner.nudge();
    } catch (error) {
      const outage = error instanceof UploadRefusal ? undefined : outageOf(error);
      if (outage) {
        // The disk filled up (or the database went away) while the archive arrived: nothing is stored, and
        // the rest of the body is read and discarded so that the client, still sending, gets the 507 (or
        // 503) rather than a connection reset.
        request.log.error({ err: error, userId: viewer.user.id }, 'upload failed: storage unavailable');
        outcome = { status: outage.status, body: outageBody(outage.message) };
        reply.header('retry-after', String(outage.retryAfterSeconds));
        discardRestOfBody(request);
      } else {
        if (!(error instanceof UploadRefusal)) throw error;
        // Refusals are the uploader's to fix, but they are logged so that no failure is silent.
        request.log.warn(
          { status: error.statusCode, errors: error.result.errors, userId: viewer.user.id },
          'upload refused',
        );
        outcome = { status: error.statusCode, body: error.body() };
        // Refused before the whole body arrived (a refusal before the archive was read): closing the
        // connection stops the client sending the rest, where keeping it alive would make the server read it
        // all to discard.
        if (!request.raw.complete) reply.header('connection', 'close');
      }
    } finally {
      // Before answering: whoever reads the answer finds the temporary file already gone.
      await form?.dispose();
    }
    return reply.code(outcome.status).send(outcome.body);
  }

  for (const url of ['/api/updates/upload', '/plugin/uploadPlugin']) {
    app.post(url, { config: { auth: UPLOAD_RULE } }, (request, reply) =>
      handle(request, reply, (env, form, uploader) => uploadVersion(env, form, uploader), refuseEarly),
    );
  }

  app.post<{ Params: { id: string } }>(
    '/api/plugins/:id/upload',
    { config: { auth: UPLOAD_RULE } },
    (request, reply) =>
      handle(request, reply, (env, form, uploader) =>
        uploadNewPlugin(env, form, request.params.id, uploader),
      ),
  );
}
