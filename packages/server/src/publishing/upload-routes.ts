import type { UploadedPluginBody, UploadedVersionBody } from '@marketplace/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../plugins/app/errors';
import { readUploadForm, UploadRefusal, type UploadForm } from './upload-form';
import { uploadNewPlugin, uploadVersion, type UploadEnvironment } from './upload-service';

const UPLOAD_RULE = { rule: 'signed-in', scope: 'upload' } as const;

/**
 * The upload endpoints the vendor's Gradle tooling and REST client call (reference §3): a new version by
 * plugin id or xml id, the legacy path of old tooling, and a new plugin. Multipart, streamed to disk.
 */
export async function uploadRoutes(
  app: FastifyInstance,
  environment: (request: FastifyRequest) => UploadEnvironment,
): Promise<void> {
  async function handle(
    request: FastifyRequest,
    reply: FastifyReply,
    run: (
      env: UploadEnvironment,
      form: UploadForm,
      uploader: { userId: number; isAdmin: boolean },
    ) => Promise<UploadedVersionBody | UploadedPluginBody>,
  ) {
    const viewer = request.viewer;
    if (viewer.kind !== 'user') throw new ApiError('unauthorized', 'Please sign in to do this.');
    const env = environment(request);
    let form: UploadForm | undefined;
    let outcome: { status: number; body: unknown };
    try {
      form = await readUploadForm(request, { maxBytes: env.options.maxUploadBytes, tempDir: env.tempDir });
      outcome = {
        status: 200,
        body: await run(env, form, { userId: viewer.user.id, isAdmin: viewer.isAdmin }),
      };
    } catch (error) {
      if (!(error instanceof UploadRefusal)) throw error;
      // Refusals are the uploader's to fix, but they are logged so that no failure is silent.
      request.log.warn(
        { status: error.statusCode, errors: error.result.errors, userId: viewer.user.id },
        'upload refused',
      );
      outcome = { status: error.statusCode, body: error.body() };
    } finally {
      // Before answering: whoever reads the answer finds the temporary file already gone.
      await form?.dispose();
    }
    return reply.code(outcome.status).send(outcome.body);
  }

  for (const url of ['/api/updates/upload', '/plugin/uploadPlugin']) {
    app.post(url, { config: { auth: UPLOAD_RULE } }, (request, reply) =>
      handle(request, reply, (env, form, uploader) => uploadVersion(env, form, uploader)),
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
