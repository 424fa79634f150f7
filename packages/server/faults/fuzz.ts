import diagnostics from 'node:diagnostics_channel';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { archiveBytes, pluginJarContent } from '../test/archive/plugin-fixtures';
import type { ReviewsTestApp } from '../test/reviews/reviews-test-app';
import { percentile, type DriverResult } from './support';

export interface FuzzOptions {
  /** Requests per route group (FAULTS_FUZZ_RUNS, the issue's 10,000). */
  runsPerGroup: number;
  /** fast-check seed, printed so that a finding can be replayed (FAULTS_FUZZ_SEED). */
  seed: number;
  /** Requests in flight at once (FAULTS_FUZZ_CONCURRENCY). */
  concurrency: number;
  /** Only these groups (FAULTS_FUZZ_GROUPS, comma-separated); all when empty. */
  groups?: readonly string[];
}

/**
 * The route groups, by path: every route of buildApp falls in the first group whose pattern matches its
 * URL. 10,000 requests per group, spread over its routes.
 */
export const ROUTE_GROUPS: [string, RegExp][] = [
  ['uploads', /^\/(api\/updates|plugin\/uploadPlugin|api\/plugins\/:id\/upload)/],
  ['plugins', /^\/api\/(plugins|icon|tags|vendors)/],
  ['search', /^\/(api\/(search|products|featured)|search)/],
  ['commerce', /^\/api\/marketplace/],
  ['reviews and users', /^\/(api\/(comments|users|tokens|me)|author)/],
  [
    'administration',
    /^\/(api\/(admin|features|performance|scheduler|consent|verifications|reports)|metrics)/,
  ],
  ['ide', /^\/(plugins|updatePlugins|pluginManager|plugin\/|files|feature|apps|trackerRpc)/],
  ['statistics', /^\/(statistic|api\/statistic)/],
  ['sign-in', /^\/(oidc|auth|in\b|\.well-known)/],
  ['site and pages', /./],
];

export function groupOf(url: string): string {
  return ROUTE_GROUPS.find(([, pattern]) => pattern.test(url))![0];
}

interface CollectedRoute {
  method: string;
  url: string;
  schema?: {
    querystring?: JsonSchema;
    body?: JsonSchema;
    params?: JsonSchema;
    headers?: JsonSchema;
    consumes?: string[];
  };
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

/**
 * Every route buildApp registers, seen by an onRoute hook put on each Fastify instance as it is created
 * (Fastify announces new instances on the `fastify.initialization` diagnostics channel).
 */
export function collectRoutes(errors?: Map<string, Error>): CollectedRoute[] {
  const routes: CollectedRoute[] = [];
  diagnostics.channel('fastify.initialization').subscribe((message) => {
    const { fastify } = message as { fastify: FastifyInstance };
    // The error behind each 5xx, by the request's x-fuzz-id, so that a finding says what broke.
    if (errors) {
      fastify.addHook('onError', async (request, _reply, error) => {
        const id = request.headers['x-fuzz-id'];
        if (typeof id === 'string') errors.set(id, error);
      });
    }
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        routes.push({ method, url: route.url ?? '', schema: route.schema as CollectedRoute['schema'] });
      }
    });
  });
  return routes;
}

// ----------------------------------------------------------------------------------------------------------
// Values: the hostile and the plausible, for every place a request carries input.

const NUMBERISH = fc.oneof(
  fc.integer({ min: -5, max: 50 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '2147483647',
    '2147483648',
    '9007199254740993',
    '1e309',
    'NaN',
    '0x10',
    '1.5',
    ' 1',
    '١',
  ),
);
const STRINGISH = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    'javascript:alert(1)',
    'a'.repeat(5000),
    '\uD800',
    '%',
    '%E0%A4%A',
    '{}',
    '[]',
    'null',
    'true',
    'IU-243.12818',
    'IC-999999.99999.9999',
    'com.example.rainbow',
    'intellij',
    'downloads',
    '*',
  ),
);
const ANY_TEXT = fc.oneof(NUMBERISH, STRINGISH);

function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wild =
    depth > 2 ? fc.oneof(ANY_TEXT, fc.constant(null)) : fc.oneof(ANY_TEXT, fc.jsonValue({ maxDepth: 2 }));
  if (!schema) return wild;
  const typed: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) typed.push(fc.constantFrom(...schema.enum));
  if (schema.const !== undefined) typed.push(fc.constant(schema.const));
  if (schema.anyOf?.length) typed.push(fc.oneof(...schema.anyOf.map((inner) => valueFor(inner, depth + 1))));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const type of types) {
    if (type === 'integer' || type === 'number') {
      typed.push(
        fc.oneof(
          fc.integer({ min: -2, max: 60 }),
          fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? 2_147_483_647, 2_147_483_648, -1, 0.5),
        ),
      );
    } else if (type === 'string') typed.push(STRINGISH);
    else if (type === 'boolean') typed.push(fc.boolean());
    else if (type === 'array') typed.push(fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 }));
    else if (type === 'object' && depth < 3) typed.push(objectFor(schema, depth + 1));
  }
  return typed.length
    ? fc.oneof({ weight: 4, arbitrary: fc.oneof(...typed) }, { weight: 1, arbitrary: wild })
    : wild;
}

function objectFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema?.properties ?? {});
  const known = properties.length
    ? fc.record(Object.fromEntries(properties.map(([key, inner]) => [key, valueFor(inner, depth)])), {
        requiredKeys: [],
      })
    : fc.constant({});
  const extra = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor')),
    ANY_TEXT,
    {
      maxKeys: 2,
    },
  );
  return fc
    .tuple(known, extra, fc.boolean())
    .map(([values, more, addMore]) =>
      addMore ? { ...more, ...values } : (values as Record<string, unknown>),
    );
}

/** Percent-encoding that accepts lone surrogates (sent as U+FFFD, as a browser would). */
function encode(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function queryString(values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) {
      const text = typeof item === 'string' ? item : JSON.stringify(item);
      // Half the time sent raw (not percent-encoded), as a careless or hostile client would.
      const raw = wellFormed(text ?? '').replace(/[#\s]/g, '');
      parts.push(`${encode(key)}=${text.length % 2 ? encode(text ?? '') : encodeURI(raw)}`);
    }
  }
  return parts.join('&');
}

const HEADER_VALUES: Record<string, fc.Arbitrary<string>> = {
  accept: fc.constantFrom('*/*', 'application/json', 'text/html', 'application/xml', 'image/*', ';;;', ''),
  'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'gzip;q=0', '*', 'zstd', ',,'),
  'accept-language': fc.constantFrom('en', 'de-DE,de;q=0.9', '*', 'x'.repeat(300), ';q='),
  'if-none-match': fc.constantFrom('"x"', '*', 'W/"1"', '', '"'),
  'if-modified-since': fc.constantFrom('Mon, 01 Jan 2024 00:00:00 GMT', 'yesterday', ''),
  range: fc.constantFrom(
    'bytes=0-0',
    'bytes=-1',
    'bytes=5-2',
    'bytes=0-',
    'bytes=a-b',
    'bytes=0-1,3-4',
    'items=1',
  ),
  cookie: fc.constantFrom('mp_consent=1', 'mp_session=%%%', 'a', '=;=;'),
  'x-forwarded-for': fc.constantFrom('1.2.3.4', 'nonsense', '::1', ''),
  'user-agent': fc.constantFrom('IntelliJ IDEA/243.12818', 'curl/8', '', 'x'.repeat(2000)),
  origin: fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1'),
  authorization: fc.constantFrom('Bearer ', 'Bearer perm:abc', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c', 'perm:'),
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'application/octet-stream',
  'application/xml',
];

/** A multipart body with parts chosen by the fuzzer: fields, a file (a real jar, random bytes, nothing). */
function multipartFor(
  fields: Record<string, unknown>,
  file: Buffer | undefined,
  fileField: string,
  fileName: string,
) {
  const boundary = 'fuzz';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${fileName}"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

interface Persona {
  name: string;
  authorization?: string;
}

/** One generated request for a route: the path filled, a query, headers, maybe a body. */
function requestFor(
  route: CollectedRoute,
  personas: readonly Persona[],
  pathValues: Record<string, fc.Arbitrary<string>>,
  jar: Buffer,
): fc.Arbitrary<InjectOptions & { persona: string }> {
  const segments = route.url.split('/');
  const pathArbitrary = fc.tuple(
    ...segments.map((segment) => {
      if (segment === '*')
        return fc.oneof(fc.constantFrom('', 'index.html', 'a/b', '..%2f..%2fx'), STRINGISH.map(encode));
      if (!segment.startsWith(':')) return fc.constant(segment);
      const name = segment.slice(1);
      return fc
        .oneof(
          { weight: 3, arbitrary: pathValues[name] ?? pathValues.id! },
          { weight: 1, arbitrary: ANY_TEXT },
        )
        .map(encode);
    }),
  );
  const headerArbitrary = fc
    .dictionary(fc.constantFrom(...Object.keys(HEADER_VALUES)), fc.constant(''), { maxKeys: 3 })
    .chain((keys) =>
      Object.keys(keys).length
        ? fc.record(Object.fromEntries(Object.keys(keys).map((key) => [key, HEADER_VALUES[key]!])))
        : fc.constant({} as Record<string, string>),
    );
  const hasBody = !['GET', 'DELETE', 'OPTIONS'].includes(route.method);
  const bodyArbitrary: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }> = hasBody
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: objectFor(route.schema?.body).map((value) => ({
            payload: JSON.stringify(value),
            contentType: 'application/json',
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .jsonValue({ maxDepth: 3 })
            .map((value) => ({ payload: JSON.stringify(value), contentType: 'application/json' })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(
              objectFor(route.schema?.body),
              fc.oneof(
                fc.constant(jar),
                fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
                fc.constant(undefined),
              ),
              fc.constantFrom('file', 'icon', 'image', 'screenshot', 'x'),
              fc.constantFrom('plugin.jar', 'plugin.zip', 'icon.png', 'a.svg', '', '../x.jar'),
            )
            .map(([fields, file, field, name]) => ({
              payload: multipartFor(fields, file, field, name),
              contentType: 'multipart/form-data; boundary=fuzz',
            })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(...CONTENT_TYPES))
            .map(([payload, contentType]) => ({
              payload,
              contentType,
            })),
        },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.constant({});
  return fc
    .record({
      path: pathArbitrary,
      query: fc.oneof(
        { weight: 3, arbitrary: objectFor(route.schema?.querystring) },
        { weight: 1, arbitrary: fc.constant({}) },
      ),
      headers: headerArbitrary,
      body: bodyArbitrary,
      persona: fc.constantFrom(...personas),
    })
    .map(({ path, query, headers, body, persona }) => {
      const search = queryString(query);
      const allHeaders: Record<string, string> = { ...headers };
      if (persona.authorization && !('authorization' in headers))
        allHeaders.authorization = persona.authorization;
      if (body.contentType) allHeaders['content-type'] = body.contentType;
      return {
        method: route.method as InjectOptions['method'],
        url: `${path.join('/') || '/'}${search ? `?${search}` : ''}`,
        headers: allHeaders,
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
        persona: persona.name,
      };
    });
}

export interface Finding {
  group: string;
  route: string;
  status: number;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: string;
    persona: string;
  };
  body: string;
  /** The server's own error behind the answer. */
  error: string;
}

/**
 * Fuzzing at the HTTP boundary: the routes of the real buildApp (on PostgreSQL, with the API tests'
 * catalogue) are walked from its route table; for each route group, `runsPerGroup` requests generated by
 * fast-check (path parameters, query strings from the route's schema and beyond, JSON, form and multipart
 * bodies, headers, as a guest, a user, an administrator or a forged token) go through app.inject. No answer
 * may be a 500 (or any 5xx): each one is a finding, printed with the request that caused it.
 */
export async function runFuzz(options: FuzzOptions): Promise<DriverResult> {
  const name = 'fuzzing the HTTP boundary';
  const failures: string[] = [];
  const errors = new Map<string, Error>();
  const routes = collectRoutes(errors);
  const { createReviewsTestApp } = await import('../test/reviews/reviews-test-app');
  const t: ReviewsTestApp = await createReviewsTestApp({
    kind: 'postgres',
    env: { TOKEN_FAILURE_RATE_LIMIT: '1000000', WRITE_RATE_LIMIT: '1000000', LOGIN_RATE_LIMIT: '1000000' },
  });
  try {
    // As the server does once it listens: until the index is read, /api/health rightly answers 503.
    await t.app.catalogueSearch.prepare();
    const userId = await t.addUser('fuzz-user');
    const adminId = await t.addUser('fuzz-admin', { isAdmin: true });
    const personas: Persona[] = [
      { name: 'guest' },
      { name: 'user', authorization: await t.bearer(userId) },
      { name: 'admin', authorization: await t.bearer(adminId) },
      { name: 'forged', authorization: 'Bearer perm:0000000000000000000000000000000000000000' },
    ];
    const idValues = fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), NUMBERISH);
    const pathValues: Record<string, fc.Arbitrary<string>> = {
      id: idValues,
      family: fc.constantFrom('intellij', 'teamcity', 'hub', 'x'),
      xmlId: fc.constantFrom('com.example.rainbow', 'org.example.unknown', ''),
      channel: fc.constantFrom('', 'eap', 'stable', 'x'),
      measure: fc.constantFrom('downloads-count', 'downloads-unique', 'x'),
      dimension: fc.constantFrom('country', 'product', 'version', 'x'),
      type: fc.constantFrom('button', 'card', 'ai', 'x'),
      file: fc.constantFrom('marketplace.js', 'x.js', '../package.json'),
    };
    const jar = await archiveBytes(pluginJarContent());

    const byGroup = new Map<string, CollectedRoute[]>();
    const seen = new Set<string>();
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const group = groupOf(route.url);
      if (options.groups?.length && !options.groups.includes(group)) continue;
      byGroup.set(group, [...(byGroup.get(group) ?? []), route]);
    }

    const findings: Finding[] = [];
    const statusCounts = new Map<number, number>();
    const figures: Record<string, string | number> = {
      'routes walked': seen.size,
      'route groups': byGroup.size,
      'runs per group': options.runsPerGroup,
      seed: options.seed,
    };
    let total = 0;
    const latencies: number[] = [];
    for (const [group, groupRoutes] of byGroup) {
      const arbitrary = fc.oneof(
        ...groupRoutes.map((route) =>
          requestFor(route, personas, pathValues, jar).map((request) => ({ route, request })),
        ),
      );
      const samples = fc.sample(arbitrary, { numRuns: options.runsPerGroup, seed: options.seed + total });
      let next = 0;
      let serverErrors = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < samples.length) {
            const index = next++;
            const { route, request } = samples[index]!;
            const { persona, ...inject } = request;
            const fuzzId = `${group}-${index}`;
            inject.headers = { ...(inject.headers as Record<string, string>), 'x-fuzz-id': fuzzId };
            const begin = performance.now();
            const response = await t.app.inject(inject).catch((error: unknown) => ({
              statusCode: 599,
              body: `inject failed: ${(error as Error).message}`,
            }));
            latencies.push(performance.now() - begin);
            statusCounts.set(response.statusCode, (statusCounts.get(response.statusCode) ?? 0) + 1);
            const error = errors.get(fuzzId);
            errors.delete(fuzzId);
            if (response.statusCode >= 500) {
              serverErrors += 1;
              if (findings.filter((finding) => finding.route === `${route.method} ${route.url}`).length < 3) {
                findings.push({
                  group,
                  route: `${route.method} ${route.url}`,
                  status: response.statusCode,
                  request: {
                    method: String(inject.method),
                    url: String(inject.url),
                    headers: inject.headers as Record<string, string>,
                    ...(inject.payload !== undefined
                      ? {
                          payload: Buffer.isBuffer(inject.payload)
                            ? `<${(inject.payload as Buffer).length} bytes multipart>`
                            : String(inject.payload).slice(0, 400),
                        }
                      : {}),
                    persona,
                  },
                  body: response.body.slice(0, 300),
                  error: error?.message.slice(0, 300) ?? '',
                });
              }
            }
          }
        }),
      );
      total += samples.length;
      figures[`${group}: routes / runs / 5xx / s`] =
        `${groupRoutes.length} / ${samples.length} / ${serverErrors} / ${Math.round((Date.now() - started) / 1000)}`;
      if (serverErrors > 0) failures.push(`${group}: ${serverErrors} answer(s) of 5xx.`);
    }
    figures['requests in total'] = total;
    figures['answers of 5xx'] = [...statusCounts]
      .filter(([status]) => status >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    figures['inject p99 ms'] = Math.round(percentile(latencies, 99));
    figures.statuses = [...statusCounts]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}:${n}`)
      .join(' ');
    for (const finding of findings) {
      const { authorization: _authorization, ...headers } = finding.request.headers;
      failures.push(
        `Finding (${finding.group}) ${finding.route} answered ${finding.status} [${finding.error}]: ` +
          JSON.stringify({ ...finding.request, headers }),
      );
    }
    return { name, failures, figures };
  } finally {
    await t.close();
  }
}
