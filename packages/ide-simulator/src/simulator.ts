import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { EDU_PLUGIN_XML_ID } from '@marketplace/core';
import { hostnameOfHostHeader, isLocalhostName, isTrustedPage } from './origin-trust';
import { resolveOptions } from './options';
import type { IdeSimulatorOptions, ReceivedRequest, ResolvedOptions } from './options';

/**
 * A path the real IDE does not have: GET answers the requests received so far as JSON, so that browser tests
 * can see what reached the IDE. It is not rate-limited and not recorded.
 */
export const RECEIVED_REQUESTS_PATH = '/__simulator/requests';

const RATE_LIMIT_WINDOW_MS = 60_000;

export interface IdeSimulator {
  /** The port it listens on (useful with `port: 0`). */
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly name: string;
  readonly buildNumber: string;
  /** Every request received so far, oldest first (the simulator's own request log path excluded). */
  readonly requests: readonly ReceivedRequest[];
  /** Forgets the requests received so far (the rate-limit counters too). */
  clearRequests(): void;
  /** The plugin ids whose installation has finished, EduTools included when it is installed. */
  installedPluginIds(): string[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body?: string;
  contentType?: string;
  ignored?: true;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function json(value: unknown): Answer {
  return { status: 200, body: JSON.stringify(value), contentType: JSON_TYPE };
}

function text(status: number, body: string): Answer {
  return { status, body, contentType: TEXT_TYPE };
}

/** The IDE's behaviour, apart from HTTP plumbing; every decision reads the injected clock. */
class SimulatedIde {
  private readonly rateCounters = new Map<string, { windowStart: number; count: number }>();
  private installBusyUntil = Number.NEGATIVE_INFINITY;
  private readonly installations: { pluginIds: string[]; finishesAt: number }[] = [];
  private eduToolsInstalledAt: number | undefined;

  constructor(private readonly options: ResolvedOptions) {
    if (options.eduTools.installed) this.eduToolsInstalledAt = Number.NEGATIVE_INFINITY;
  }

  clearRateCounters(): void {
    this.rateCounters.clear();
  }

  private isEduToolsInstalled(): boolean {
    return this.eduToolsInstalledAt !== undefined && this.options.now() >= this.eduToolsInstalledAt;
  }

  installedPluginIds(): string[] {
    const now = this.options.now();
    const ids = new Set(this.installations.filter((i) => now >= i.finishesAt).flatMap((i) => i.pluginIds));
    ids.delete(EDU_PLUGIN_XML_ID);
    if (this.isEduToolsInstalled()) ids.add(EDU_PLUGIN_XML_ID);
    return [...ids];
  }

  /** Counts the request against its address's window; true when it is over the limit. */
  private isRateLimited(remoteAddress: string): boolean {
    const now = this.options.now();
    let counter = this.rateCounters.get(remoteAddress);
    // Like the IDE's counter: a window opens at the first request and lasts one minute.
    if (!counter || now - counter.windowStart >= RATE_LIMIT_WINDOW_MS) {
      counter = { windowStart: now, count: 0 };
      this.rateCounters.set(remoteAddress, counter);
    }
    counter.count += 1;
    return counter.count > this.options.rateLimitPerMinute;
  }

  private productInfo(): Answer {
    return json({ name: this.options.name, buildNumber: this.options.buildNumber });
  }

  answer(
    path: string,
    query: URLSearchParams,
    page: string | undefined,
    origin: string | undefined,
    remoteAddress: string,
  ): Answer {
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments[0] !== 'api') return text(404, 'Not Found');
    const service = segments[1];
    const isEduService = service === 'edu' && (segments[2] === 'marketplace' || segments[2] === 'lti');
    if (service !== 'about' && service !== 'installPlugin' && !isEduService) return text(404, 'Not Found');
    // EduTools' services exist only while the plugin is installed.
    if (isEduService && !this.isEduToolsInstalled()) return text(404, 'Not Found');

    if (this.isRateLimited(remoteAddress)) return text(429, 'Too Many Requests');

    const mayAct = () =>
      isTrustedPage(page, this.options.trustedHosts) || this.options.untrustedOrigins === 'accept';

    if (service === 'about') return this.about(query, origin);
    if (service === 'installPlugin') return this.installPlugin(query, mayAct);
    if (segments[2] === 'lti') return this.openLtiCourse(query, mayAct);
    if (segments[3] === 'info') {
      // EduTools sends this JSON with an HTML content type; clients must not rely on the header.
      return {
        status: 200,
        body: JSON.stringify({ version: this.ideVersion(), edutools: this.options.eduTools.version }),
        contentType: 'text/html; charset=utf-8',
      };
    }
    return this.openCourse(query, mayAct);
  }

  /** The marketing version from the branch: 252 -> 2025.2. */
  private ideVersion(): string {
    const branch = this.options.baselineVersion;
    return `${2000 + Math.floor(branch / 10)}.${branch % 10}`;
  }

  private about(query: URLSearchParams, origin: string | undefined): Answer {
    const { name, buildNumber, productCode, baselineVersion } = this.options;
    const about: Record<string, unknown> = {
      name,
      productName: productNameOf(name),
      baselineVersion,
      buildNumber: buildNumber.slice(buildNumber.indexOf('-') + 1),
    };
    const isLocalOrigin = origin === undefined || isTrustedPage(origin, new Set());
    if (query.has('more') && isLocalOrigin) {
      Object.assign(about, { vendor: 'JetBrains s.r.o.', productCode, isEAP: false });
    }
    return json(about);
  }

  private installPlugin(query: URLSearchParams, mayAct: () => boolean): Answer {
    const pluginId = query.get('pluginId')?.trim();
    const pluginIdsText = query.get('pluginIds')?.trim();
    if (!pluginId && !pluginIdsText) return this.productInfo();

    let pluginIds: string[];
    if (pluginId) {
      pluginIds = [pluginId];
    } else {
      const parsed = parseJsonArrayOfStrings(pluginIdsText ?? '');
      if (!parsed)
        return text(400, 'pluginIds must be a JSON array of plugin ids, e.g. ["com.example.tool"].');
      pluginIds = parsed;
    }

    const action = query.get('action');
    if (action === 'checkCompatibility') {
      const known = pluginIds.filter((id) => this.options.plugins.has(id));
      if (pluginId) {
        return json(known.length === 1 ? { compatible: this.options.plugins.get(pluginId) } : {});
      }
      return json(Object.fromEntries(known.map((id) => [id, this.options.plugins.get(id)])));
    }
    if (action === 'install') {
      if (!mayAct()) return { status: 403 };
      return this.install(pluginIds);
    }
    return this.productInfo();
  }

  private install(pluginIds: string[]): Answer {
    const now = this.options.now();
    // The IDE runs one install dialog at a time and answers 200 to the others without doing anything.
    if (now < this.installBusyUntil) return { status: 200, ignored: true };
    this.installBusyUntil = now + this.options.installDurationMs;
    this.installations.push({ pluginIds, finishesAt: this.installBusyUntil });
    const { appearsAfterInstallMs } = this.options.eduTools;
    if (pluginIds.includes(EDU_PLUGIN_XML_ID) && appearsAfterInstallMs !== null) {
      const appearsAt = now + appearsAfterInstallMs;
      this.eduToolsInstalledAt = Math.min(this.eduToolsInstalledAt ?? appearsAt, appearsAt);
    }
    return { status: 200 };
  }

  private courseIsOpenable(courseIdText: string | null): 'unknown-command' | 'opens' | 'cannot-open' {
    if (courseIdText === null || !/^\d{1,15}$/.test(courseIdText) || Number(courseIdText) === 0) {
      return 'unknown-command';
    }
    const { courseIds } = this.options;
    return !courseIds || courseIds.has(Number(courseIdText)) ? 'opens' : 'cannot-open';
  }

  private openCourse(query: URLSearchParams, mayAct: () => boolean): Answer {
    const openable = this.courseIsOpenable(query.get('course_id'));
    if (openable === 'unknown-command') return text(400, 'Unknown command');
    if (!mayAct()) return { status: 403 };
    return openable === 'opens' ? { status: 200 } : text(404, 'Course not found');
  }

  private openLtiCourse(query: URLSearchParams, mayAct: () => boolean): Answer {
    const openable = this.courseIsOpenable(query.get('marketplace_course_id'));
    if (openable === 'unknown-command') return text(400, 'Unknown command');
    if (!mayAct()) return { status: 403 };
    return openable === 'opens' ? { status: 200 } : text(404, 'Course not found');
  }
}

/** The short product name `/api/about` reports: "IntelliJ IDEA 2025.2" -> "IDEA". */
function productNameOf(fullName: string): string {
  const withoutVersion = fullName.replace(/\s+\d{4}(\.\d+)*(\s.*)?$/, '').trim();
  return withoutVersion.replace(/^IntelliJ\s+/, '') || fullName;
}

function parseJsonArrayOfStrings(value: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  if (!parsed.every((id): id is string => typeof id === 'string' && id.trim() !== '')) return undefined;
  return parsed.map((id) => id.trim());
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The IDE's CORS answer: the calling origin, with credentials, on every response. */
function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  };
}

function send(response: ServerResponse, method: string, origin: string | undefined, answer: Answer): void {
  const headers: Record<string, string> = {
    ...corsHeaders(origin),
    'Cache-Control': 'no-cache',
    'X-Frame-Options': 'Deny',
  };
  if (answer.contentType) headers['Content-Type'] = answer.contentType;
  const body = answer.body ?? '';
  headers['Content-Length'] = String(Buffer.byteLength(body));
  response.writeHead(answer.status, headers);
  response.end(method === 'HEAD' ? undefined : body);
}

/**
 * Starts a stand-in for the IDE's built-in web server on 127.0.0.1. Resolves once it listens; rejects with a
 * readable message when the port is taken or an option is wrong.
 */
export async function startIdeSimulator(options: IdeSimulatorOptions = {}): Promise<IdeSimulator> {
  const resolved = resolveOptions(options);
  const ide = new SimulatedIde(resolved);
  const requests: ReceivedRequest[] = [];

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const origin = headerValue(request, 'origin');
    const hostHeader = headerValue(request, 'host');

    let answer: Answer;
    if (hostHeader === undefined || !isLocalhostName(hostnameOfHostHeader(hostHeader))) {
      // The IDE's guard against DNS rebinding: a page on attacker.example resolved to 127.0.0.1.
      answer = text(403, 'The Host header must name localhost.');
    } else if (url.pathname === RECEIVED_REQUESTS_PATH && method === 'GET') {
      send(response, method, origin, json(requests));
      return;
    } else if (method === 'OPTIONS') {
      answer = { status: 200 };
      response.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      response.setHeader(
        'Access-Control-Allow-Headers',
        'origin, accept, authorization, content-type, x-ijt, x-requested-with',
      );
    } else if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      answer = text(405, `The IDE answers only GET and HEAD, not ${method}.`);
    } else {
      const page = origin ?? headerValue(request, 'referer');
      answer = ide.answer(url.pathname, url.searchParams, page, origin, request.socket.remoteAddress ?? '');
    }

    const received: ReceivedRequest = {
      at: resolved.now(),
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      origin,
      status: answer.status,
      ...(answer.ignored ? { ignored: true as const } : {}),
    };
    requests.push(received);
    send(response, method, origin, answer);
    resolved.onRequest?.(received);
  };

  const server: Server = createServer((request, response) => {
    try {
      handle(request, response);
    } catch (error) {
      console.error('IDE simulator: could not answer a request', error);
      if (!response.headersSent) send(response, 'GET', undefined, text(500, 'Internal error'));
    }
  });
  // Probes and the IDE's clients keep connections short; do not let idle sockets hold close() up.
  server.keepAliveTimeout = 1_000;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`IDE simulator: port ${resolved.port} on 127.0.0.1 is already in use.`)
          : error,
      );
    };
    server.once('error', onError);
    server.listen(resolved.port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  let closed: Promise<void> | undefined;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    name: resolved.name,
    buildNumber: resolved.buildNumber,
    requests,
    clearRequests() {
      requests.length = 0;
      ide.clearRateCounters();
    },
    installedPluginIds: () => ide.installedPluginIds(),
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
