import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { EDU_PLUGIN_XML_ID } from '@marketplace/core';
import { hostnameOfHostHeader, isLocalhostName, isLocalPage, pageTrust } from './origin-trust';
import { resolveOptions, TRUST_ANSWER_REMEMBERED_MS } from './options';
import type { IdeSimulatorOptions, PendingConfirmation, ReceivedRequest, ResolvedOptions } from './options';

/**
 * A path the real IDE does not have: GET answers the requests received so far as JSON, so that browser tests
 * can see what reached the IDE. It is not rate-limited and not recorded.
 */
export const RECEIVED_REQUESTS_PATH = '/__simulator/requests';

/**
 * A path the real IDE does not have, to answer its "trust this host?" dialog from a test or a demo page:
 * GET lists the questions waiting for an answer; POST `?answer=yes|no[&id=N]` answers the oldest one (or
 * question N) and responds with it, or 404 when none waits. Not rate-limited and not recorded.
 */
export const CONFIRMATIONS_PATH = '/__simulator/confirmations';

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
  /** The "trust this host?" questions the IDE is asking (policy 'ask'), oldest first. */
  pendingConfirmations(): PendingConfirmation[];
  /**
   * Answers the oldest question (or the one with `id`) as the visitor would in the IDE's dialog: `true` lets
   * every request waiting on it through, `false` answers them 403. The answer is remembered for a day, per
   * scheme and host. Returns the question answered, or undefined when none waits.
   */
  confirmPending(accept: boolean, id?: number): PendingConfirmation | undefined;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body?: string;
  contentType?: string;
  ignored?: true;
  askedToTrust?: true;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function json(value: unknown): Answer {
  return { status: 200, body: JSON.stringify(value), contentType: JSON_TYPE };
}

function text(status: number, body: string): Answer {
  return { status, body, contentType: TEXT_TYPE };
}

/** A "trust this host?" question on screen, with the requests that wait for its answer. */
interface Question {
  id: number;
  host: string | undefined;
  page: string | undefined;
  /** What the answer is remembered under; undefined for a request that named no page. */
  key: string | undefined;
  since: number;
  waiters: ((trusted: boolean) => void)[];
}

function viewOf(question: Question): PendingConfirmation {
  const { id, host, page, since } = question;
  return { id, host, page, since, waiting: question.waiters.length };
}

/** The IDE's behaviour, apart from HTTP plumbing; every decision reads the injected clock. */
class SimulatedIde {
  private readonly rateCounters = new Map<string, { windowStart: number; count: number }>();
  private installBusyUntil = Number.NEGATIVE_INFINITY;
  private readonly installations: { pluginIds: string[]; finishesAt: number }[] = [];
  private eduToolsInstalledAt: number | undefined;
  private readonly rememberedAnswers = new Map<string, { trusted: boolean; at: number }>();
  private readonly questions: Question[] = [];
  private nextQuestionId = 1;

  constructor(private readonly options: ResolvedOptions) {
    if (options.eduTools.installed) this.eduToolsInstalledAt = Number.NEGATIVE_INFINITY;
  }

  clearRateCounters(): void {
    this.rateCounters.clear();
  }

  pendingConfirmations(): PendingConfirmation[] {
    return this.questions.map(viewOf);
  }

  /** Answers the oldest question (or the one with `id`) for every request waiting on it. */
  confirmPending(trusted: boolean, id?: number): PendingConfirmation | undefined {
    const index = id === undefined ? 0 : this.questions.findIndex((question) => question.id === id);
    const question = index < 0 ? undefined : this.questions[index];
    if (!question) return undefined;
    this.questions.splice(index, 1);
    this.remember(question.key, trusted);
    const view = viewOf(question);
    for (const waiter of question.waiters) waiter(trusted);
    return view;
  }

  /** Forgets the questions on screen when the IDE quits; their requests are never answered. */
  dropQuestions(): void {
    this.questions.length = 0;
  }

  private remember(key: string | undefined, trusted: boolean): void {
    if (key !== undefined) this.rememberedAnswers.set(key, { trusted, at: this.options.now() });
  }

  /**
   * Whether the IDE serves this page: at once when it trusts the page or remembers an answer, else after its
   * dialog has been answered (the 'ask' policy keeps the request waiting until then).
   */
  private trust(origin: string | undefined, referer: string | undefined): boolean | Promise<boolean> {
    const trust = pageTrust(origin, referer, this.options.trustedHosts);
    if (trust.trusted) return true;
    if (trust.key !== undefined) {
      const remembered = this.rememberedAnswers.get(trust.key);
      if (remembered && this.options.now() - remembered.at < TRUST_ANSWER_REMEMBERED_MS) {
        return remembered.trusted;
      }
    }
    const policy = this.options.untrustedOrigins;
    if (policy !== 'ask') {
      this.remember(trust.key, policy === 'accept');
      return policy === 'accept';
    }
    return new Promise((resolve) => {
      // The IDE asks about one host at a time: further requests from that page wait for the same answer.
      const open =
        trust.key === undefined ? undefined : this.questions.find((question) => question.key === trust.key);
      if (open) {
        open.waiters.push(resolve);
        return;
      }
      const question: Question = {
        id: this.nextQuestionId++,
        host: trust.host,
        page: trust.page,
        key: trust.key,
        since: this.options.now(),
        waiters: [resolve],
      };
      this.questions.push(question);
      this.options.onConfirmationRequested?.(viewOf(question));
    });
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

  async answer(
    path: string,
    query: URLSearchParams,
    origin: string | undefined,
    referer: string | undefined,
    remoteAddress: string,
  ): Promise<Answer> {
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments[0] !== 'api') return text(404, 'Not Found');
    const service = segments[1];
    const isEduService = service === 'edu' && (segments[2] === 'marketplace' || segments[2] === 'lti');
    if (service !== 'about' && service !== 'installPlugin' && !isEduService) return text(404, 'Not Found');
    // EduTools' services exist only while the plugin is installed.
    if (isEduService && !this.isEduToolsInstalled()) return text(404, 'Not Found');

    let askedToTrust: true | undefined;
    const trusted = async () => {
      const decision = this.trust(origin, referer);
      if (typeof decision !== 'boolean') askedToTrust = true;
      return decision;
    };
    const withAsked = (answer: Answer): Answer => (askedToTrust ? { ...answer, askedToTrust } : answer);

    if (service === 'installPlugin') {
      // Every request to this service, looking as well as installing, passes the IDE's trust check first
      // (its "trust this host?" dialog included), and only then counts against the rate limit.
      if (!(await trusted())) return withAsked({ status: 403 });
      if (this.isRateLimited(remoteAddress)) return withAsked(text(429, 'Too Many Requests'));
      return withAsked(this.installPlugin(query));
    }

    if (this.isRateLimited(remoteAddress)) return text(429, 'Too Many Requests');
    if (service === 'about') return this.about(query, origin);
    if (segments[2] === 'lti') return withAsked(await this.openLtiCourse(query, trusted));
    if (segments[3] === 'info') {
      // EduTools sends this JSON with an HTML content type; clients must not rely on the header.
      return {
        status: 200,
        body: JSON.stringify({ version: this.ideVersion(), edutools: this.options.eduTools.version }),
        contentType: 'text/html; charset=utf-8',
      };
    }
    return withAsked(await this.openCourse(query, trusted));
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
    const isLocalOrigin = origin === undefined || isLocalPage(origin);
    if (query.has('more') && isLocalOrigin) {
      Object.assign(about, { vendor: 'JetBrains s.r.o.', productCode, isEAP: false });
    }
    return json(about);
  }

  private installPlugin(query: URLSearchParams): Answer {
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
    if (action === 'install') return this.install(pluginIds);
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

  private async openCourse(query: URLSearchParams, mayAct: () => Promise<boolean>): Promise<Answer> {
    const openable = this.courseIsOpenable(query.get('course_id'));
    if (openable === 'unknown-command') return text(400, 'Unknown command');
    if (!(await mayAct())) return { status: 403 };
    return openable === 'opens' ? { status: 200 } : text(404, 'Course not found');
  }

  private async openLtiCourse(query: URLSearchParams, mayAct: () => Promise<boolean>): Promise<Answer> {
    const openable = this.courseIsOpenable(query.get('marketplace_course_id'));
    if (openable === 'unknown-command') return text(400, 'Unknown command');
    if (!(await mayAct())) return { status: 403 };
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

  const record = (method: string, url: URL, origin: string | undefined, answer: Answer) => {
    const received: ReceivedRequest = {
      at: resolved.now(),
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      origin,
      status: answer.status,
      ...(answer.ignored ? { ignored: true as const } : {}),
      ...(answer.askedToTrust ? { askedToTrust: true as const } : {}),
    };
    requests.push(received);
    return received;
  };

  /** The simulator's own control path; never rate-limited or recorded. */
  const confirmations = (method: string, query: URLSearchParams): Answer => {
    if (method === 'GET') return json(ide.pendingConfirmations());
    if (method !== 'POST') return text(405, 'Use GET to list the questions and POST to answer one.');
    const answer = query.get('answer');
    if (answer !== 'yes' && answer !== 'no') return text(400, 'answer must be yes or no.');
    const idText = query.get('id');
    if (idText !== null && !/^\d+$/.test(idText)) return text(400, 'id must be a question id.');
    const answered = ide.confirmPending(answer === 'yes', idText === null ? undefined : Number(idText));
    return answered ? json(answered) : text(404, 'No question is waiting for an answer.');
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
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
    } else if (url.pathname === CONFIRMATIONS_PATH && method !== 'OPTIONS') {
      send(response, method, origin, confirmations(method, url.searchParams));
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
      const referer = headerValue(request, 'referer');
      answer = await ide.answer(
        url.pathname,
        url.searchParams,
        origin,
        referer,
        request.socket.remoteAddress ?? '',
      );
    }

    const received = record(method, url, origin, answer);
    // A request whose caller gave up while the IDE asked is still answered, to nobody, as the IDE does.
    if (!response.destroyed) send(response, method, origin, answer);
    resolved.onRequest?.(received);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('IDE simulator: could not answer a request', error);
      if (!response.headersSent) send(response, 'GET', undefined, text(500, 'Internal error'));
    });
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
    pendingConfirmations: () => ide.pendingConfirmations(),
    confirmPending: (accept, id) => ide.confirmPending(accept, id),
    close() {
      ide.dropQuestions();
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
