import { UNKNOWN_UPLOAD_ERROR } from '@marketplace/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, createApiClient, type UploadProgress } from '../src';
import { json, readForm, startHttpDouble, type HttpDouble } from './support/http-double';

let double: HttpDouble;
const ARCHIVE = new Uint8Array(3 * 1024 * 1024).map((_, index) => (index * 7) % 256);

beforeAll(async () => {
  double = await startHttpDouble();
  double.on('/api/updates/upload', async (request, response) => {
    const form = await readForm(request);
    const file = form.get('file') as File;
    json(response, 200, {
      id: 42,
      version: '1.4.0',
      channel: form.get('channel'),
      tags: form.getAll('tags'),
      fileName: file.name,
      size: file.size,
      receivedBytes: request.body.byteLength,
      contentLength: request.headers['content-length'] ?? null,
      authorization: request.headers.authorization ?? null,
      warnings: ['The plugin has no change notes.'],
    });
  });
  double.on('/invalid', (_request, response) =>
    json(response, 400, { errors: ['plugin.xml is missing', 'The id is taken'], warnings: ['No icon'] }),
  );
  double.on('/invalid-message', (_request, response) =>
    json(response, 400, { type: 'error', message: 'The file must be a .zip or .jar archive.' }),
  );
  double.on('/invalid-silent', (_request, response) => response.writeHead(400).end());
  double.on('/failed-with-errors', (_request, response) =>
    json(response, 200, { errors: ['Rejected by review'], warnings: [] }),
  );
  double.on('/too-large', (_request, response) =>
    json(response, 413, { type: 'error', message: 'The archive is larger than 400 MB.' }),
  );
  double.on('/broken', (_request, response) => response.writeHead(502, 'Bad Gateway').end());
  double.on('/broken-silent', (_request, response) => response.writeHead(502, '').end());
});

afterAll(async () => {
  await double?.close();
});

const client = () => createApiClient({ baseUrl: double.origin, getToken: () => 'perm:token' });
const archive = () => new File([ARCHIVE], 'tool-1.4.0.zip', { type: 'application/zip' });

describe('uploads outside the browser', () => {
  it('streams the form, counting bytes up to the exact total, with the token forced', async () => {
    const progress: UploadProgress[] = [];
    const outcome = await client().upload<Record<string, unknown>>('/api/updates/upload', {
      file: archive(),
      fields: { pluginId: 7, channel: 'eap', tags: ['12', '15'] },
      onProgress: (event) => progress.push(event),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.data).toMatchObject({
      version: '1.4.0',
      channel: 'eap',
      tags: ['12', '15'],
      fileName: 'tool-1.4.0.zip',
      size: ARCHIVE.byteLength,
      authorization: 'Bearer perm:token',
    });
    expect(outcome.result).toEqual({
      errors: [],
      warnings: ['The plugin has no change notes.'],
      isErrorUnknown: false,
    });

    const { receivedBytes: sent, contentLength } = outcome.data as {
      receivedBytes: number;
      contentLength: string;
    };
    expect(contentLength).toBe(String(sent));
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((event) => event.total === sent)).toBe(true);
    expect(progress.at(0)?.loaded).toBe(0);
    expect(progress.at(-1)?.loaded).toBe(sent);
    const loaded = progress.map((event) => event.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
  });

  it('sends a plain multipart form when nobody listens for progress', async () => {
    const outcome = await client().upload<{ size: number; receivedBytes: number }>('/api/updates/upload', {
      file: new Blob([ARCHIVE]),
      fileName: 'tool.jar',
    });
    expect(outcome.ok && outcome.data).toMatchObject({ size: ARCHIVE.byteLength, fileName: 'tool.jar' });
  });

  it('takes a 400 answer as the validation result', async () => {
    await expect(client().upload('/invalid', { file: archive() })).resolves.toEqual({
      ok: false,
      result: {
        errors: ['plugin.xml is missing', 'The id is taken'],
        warnings: ['No icon'],
        isErrorUnknown: false,
      },
    });
    await expect(client().upload('/invalid-message', { file: archive() })).resolves.toEqual({
      ok: false,
      result: { errors: ['The file must be a .zip or .jar archive.'], warnings: [], isErrorUnknown: false },
    });
    await expect(client().upload('/invalid-silent', { file: archive() })).resolves.toEqual({
      ok: false,
      result: { errors: [UNKNOWN_UPLOAD_ERROR], warnings: [], isErrorUnknown: true },
    });
    const rejected = await client().upload('/failed-with-errors', { file: archive() });
    expect(rejected).toEqual({
      ok: false,
      result: { errors: ['Rejected by review'], warnings: [], isErrorUnknown: false },
    });
  });

  it("rejects other statuses with 'Status code {code}: {text}'", async () => {
    const tooLarge = await client()
      .upload('/too-large', { file: archive(), onProgress: () => {} })
      .catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(ApiError);
    expect((tooLarge as ApiError).status).toBe(413);
    expect((tooLarge as ApiError).message).toBe('Status code 413: The archive is larger than 400 MB.');
    const broken = (await client()
      .upload('/broken', { file: archive() })
      .catch((error: unknown) => error)) as ApiError;
    expect(broken.message).toBe('Status code 502: Bad Gateway');
    const silent = (await client()
      .upload('/broken-silent', { file: archive() })
      .catch((error: unknown) => error)) as ApiError;
    expect(silent.message).toBe(`Status code 502: ${UNKNOWN_UPLOAD_ERROR}`);
  });

  it('stops when aborted and tells an unreachable server apart', async () => {
    const controller = new AbortController();
    const pending = client().upload('/api/updates/upload', {
      file: archive(),
      signal: controller.signal,
      onProgress: ({ loaded }) => {
        if (loaded > 1024 * 1024) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const closed = await startHttpDouble();
    await closed.close();
    const unreachable = await createApiClient({ baseUrl: closed.origin })
      .upload('/api/updates/upload', { file: archive(), onProgress: () => {} })
      .catch((error: unknown) => error);
    expect(unreachable).toBeInstanceOf(NetworkError);
  });
});
