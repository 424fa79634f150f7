import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, createApiClient } from '../src';
import { json, startHttpDouble, type HttpDouble } from './support/http-double';

let double: HttpDouble;

beforeAll(async () => {
  double = await startHttpDouble();
  double.on('/echo', (request, response) =>
    json(response, 200, {
      method: request.method,
      accept: request.headers.accept ?? null,
      authorization: request.headers.authorization ?? null,
      contentType: request.headers['content-type'] ?? null,
      body: request.body.toString('utf8'),
      url: request.url,
    }),
  );
  double.on('/empty', (_request, response) => response.writeHead(204).end());
  double.on('/saved', (_request, response) =>
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('The plugin was saved.'),
  );
  double.on('/long-failure', (_request, response) =>
    json(response, 500, { type: 'ERROR', message: `${'x'.repeat(1200)}` }),
  );
  double.on('/text-failure', (_request, response) =>
    response.writeHead(409, { 'content-type': 'text/plain' }).end('Version 1.0 already exists.'),
  );
  double.on('/bare-failure', (_request, response) => response.writeHead(403, 'Forbidden').end());
  double.on('/broken-json', (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"plugins": ['),
  );
  double.on('/foreign-links', (_request, response) =>
    json(response, 200, [], { link: '<https://elsewhere.example/api/steal?page=2>; rel="next"' }),
  );
  double.on('/api/admin/plugins/pending', (request, response) =>
    json(
      response,
      200,
      [
        {
          id: 7,
          name: 'Fresh',
          xmlId: 'com.example.fresh',
          family: 'intellij',
          vendor: 'Example',
          kind: 'new',
          pendingVersions: [{ id: 70, version: '1.0.0', channel: '', uploaded: 1_000 }],
          waitingSince: 2_000,
        },
      ],
      {
        link: `<${request.url}>; rel="first", </api/admin/plugins/pending?max=5&offset=15>; rel="next"`,
        'x-total-count': '16',
      },
    ),
  );
  double.on('/hang', () => {
    // Never answers: only an abort ends this call.
  });
});

afterAll(async () => {
  await double?.close();
});

describe('requests', () => {
  it('asks for JSON and sends the bearer token only when one is available and credentials are not omitted', async () => {
    const guest = createApiClient({ baseUrl: double.origin });
    const answer = await guest.request<{ accept: string; authorization: string | null }>({
      method: 'GET',
      path: '/echo',
    });
    expect(answer.kind).toBe('json');
    expect(answer.kind === 'json' && answer.data).toMatchObject({
      accept: 'application/json',
      authorization: null,
    });

    let token: string | undefined = 'perm:abc';
    const signedIn = createApiClient({ baseUrl: double.origin, getToken: async () => token });
    const withToken = await signedIn.request<{ authorization: string | null }>({
      method: 'GET',
      path: '/echo',
    });
    expect(withToken.kind === 'json' && withToken.data.authorization).toBe('Bearer perm:abc');

    const omitted = await signedIn.request<{ authorization: string | null }>({
      method: 'GET',
      path: '/echo',
      omitCredentials: true,
    });
    expect(omitted.kind === 'json' && omitted.data.authorization).toBeNull();
    const forced = await signedIn.request<{ authorization: string | null }>({
      method: 'GET',
      path: '/echo',
      omitCredentials: true,
      forceAuthorization: true,
    });
    expect(forced.kind === 'json' && forced.data.authorization).toBe('Bearer perm:abc');

    token = undefined;
    const signedOut = await signedIn.request<{ authorization: string | null }>({
      method: 'GET',
      path: '/echo',
    });
    expect(signedOut.kind === 'json' && signedOut.data.authorization).toBeNull();
  });

  it('sends JSON bodies as JSON and keeps a path prefix of the base URL', async () => {
    const client = createApiClient({ baseUrl: `${double.origin}/` });
    const answer = await client.request<{ contentType: string; body: string; method: string }>({
      method: 'PUT',
      path: '/echo',
      query: { tags: ['a', 'b'], empty: undefined },
      json: { name: 'Bracket Colorizer' },
    });
    expect(answer.kind === 'json' && answer.data).toMatchObject({
      method: 'PUT',
      contentType: 'application/json',
      body: '{"name":"Bracket Colorizer"}',
      url: '/echo?tags=a&tags=b',
    });
    const prefixed = createApiClient({ baseUrl: `${double.origin}/marketplace/` });
    expect(prefixed.url('/api/plugins/1')).toBe(`${double.origin}/marketplace/api/plugins/1`);
  });

  it('sends files as a multipart form in the field the caller names', async () => {
    const form = new FormData();
    form.append('file', new Blob(['<svg/>'], { type: 'image/svg+xml' }), 'icon.svg');
    const answer = await createApiClient({ baseUrl: double.origin }).request<{
      contentType: string;
      body: string;
    }>({ method: 'PUT', path: '/echo', form });
    expect(answer.kind === 'json' && answer.data.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(answer.kind === 'json' && answer.data.body).toContain('name="file"; filename="icon.svg"');
  });

  it('answers 204 with nothing and a text body with a success notification message', async () => {
    const client = createApiClient({ baseUrl: double.origin });
    expect((await client.request({ method: 'DELETE', path: '/empty' })).kind).toBe('empty');
    const saved = await client.request({ method: 'POST', path: '/saved', json: {} });
    expect(saved.kind).toBe('notification');
    expect(saved.kind === 'notification' && saved.message).toBe('The plugin was saved.');
  });
});

describe('the approval queue', () => {
  it('asks for the page given, with the bearer token, and reads the entries, links and total', async () => {
    const admin = createApiClient({ baseUrl: double.origin, getToken: async () => 'perm:admin' });
    const queue = await admin.getApprovalQueue({ max: 5, offset: 10 });
    const sent = double.requests.at(-1);
    expect(sent?.url).toBe('/api/admin/plugins/pending?max=5&offset=10');
    expect(sent?.headers.authorization).toBe('Bearer perm:admin');
    expect(queue.data.map((entry) => [entry.name, entry.kind, entry.pendingVersions[0]?.version])).toEqual([
      ['Fresh', 'new', '1.0.0'],
    ]);
    expect(queue.totalCount).toBe(16);
    expect(queue.links.next).toBe(`${double.origin}/api/admin/plugins/pending?max=5&offset=15`);
  });
});

describe('failures', () => {
  const client = () => createApiClient({ baseUrl: double.origin });

  it('reads a JSON error per spec §8: type lower-cased, status from the type, message cut to 1000', async () => {
    const error = (await client()
      .request({ method: 'GET', path: '/long-failure' })
      .catch((failure: unknown) => failure)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(500);
    expect(error.type).toBe('error');
    expect(error.reportedStatus).toBe('ERROR');
    expect(error.message).toHaveLength(1000);
    expect(error.notification).toEqual({ title: 'Internal Error', keepOpen: true });
  });

  it('uses a text body, or else the status text, as the message of other errors', async () => {
    const conflict = (await client()
      .request({ method: 'POST', path: '/text-failure' })
      .catch((failure: unknown) => failure)) as ApiError;
    expect(conflict).toMatchObject({ status: 409, type: 'warning', reportedStatus: 409 });
    expect(conflict.message).toBe('Version 1.0 already exists.');
    const forbidden = (await client()
      .request({ method: 'GET', path: '/bare-failure' })
      .catch((failure: unknown) => failure)) as ApiError;
    expect(forbidden.message).toBe('Forbidden');
    expect(forbidden.notification.message).toBe('Forbidden');
  });

  it('keeps unreachable servers and unreadable answers apart from HTTP errors', async () => {
    const broken = await client()
      .request({ method: 'GET', path: '/broken-json' })
      .catch((failure: unknown) => failure);
    expect(broken).toBeInstanceOf(NetworkError);
    expect((broken as NetworkError).message).toContain('not valid JSON');

    const closed = await startHttpDouble();
    const closedOrigin = closed.origin;
    await closed.close();
    const unreachable = await createApiClient({ baseUrl: closedOrigin })
      .getPlugin(1)
      .catch((failure: unknown) => failure);
    expect(unreachable).toBeInstanceOf(NetworkError);
    expect(unreachable).not.toBeInstanceOf(ApiError);
    expect((unreachable as NetworkError).message).toBe(
      `Could not reach the marketplace at ${closedOrigin}. Check the connection and try again.`,
    );
  });

  it('cancels a call that is waiting for its answer', async () => {
    const controller = new AbortController();
    const pending = client().request({ method: 'GET', path: '/hang', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const failure = await pending.catch((error: unknown) => error);
    expect((failure as DOMException).name).toBe('AbortError');
  });

  it('never follows a page link to another origin, so the token stays home', async () => {
    const signedIn = createApiClient({ baseUrl: double.origin, getToken: () => 'perm:secret' });
    const foreign = await signedIn.request<unknown[]>({ method: 'GET', path: '/foreign-links' });
    expect(foreign.links.next).toBe('https://elsewhere.example/api/steal?page=2');
    const paged = {
      data: [],
      url: `${double.origin}/foreign-links`,
      links: foreign.links,
      totalCount: undefined,
    };
    await expect(signedIn.followLink(paged)).rejects.toThrow(
      `Refusing to call https://elsewhere.example: this client talks only to ${double.origin}.`,
    );
    expect(double.requests.some((request) => request.url.includes('steal'))).toBe(false);
  });

  it('stops walking pages when a next link leads back to a page already read', async () => {
    let page = 0;
    double.on('/circular', (_request, response) => {
      page += 1;
      // Page 2 names page 1 as its next page, as a faulty server might.
      const next = page % 2 === 1 ? '/circular?page=2' : '/circular?page=1';
      json(response, 200, [page], { link: `<${next}>; rel="next"` });
    });
    const guest = client();
    const first = await guest.request<number[]>({ method: 'GET', path: '/circular?page=1' });
    expect(first.kind).toBe('json');
    const start = {
      data: [1],
      url: `${double.origin}/circular?page=1`,
      links: first.links,
      totalCount: undefined,
    };
    const seen: number[][] = [];
    for await (const read of guest.pages(start)) seen.push(read.data);
    expect(seen).toEqual([[1], [2]]);
  });

  it('refuses ids and base URLs that cannot be right before sending anything', async () => {
    expect(() => createApiClient({ baseUrl: 'ftp://plugins.example' })).toThrow(/http/);
    expect(() => createApiClient({ baseUrl: 'plugins.example' })).toThrow(/absolute/);
    const before = double.requests.length;
    expect(() => client().getPlugin(-1)).toThrow('Plugin id must be a whole number from 1, got -1.');
    expect(() => client().getUser(1.5)).toThrow(RangeError);
    expect(double.requests.length).toBe(before);
  });
});
