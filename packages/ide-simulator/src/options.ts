import { parseBuildNumber } from '@marketplace/core';

/**
 * What the IDE's "trust this host?" dialog answers when a page it does not trust calls `/api/installPlugin`
 * (or asks EduTools to open a course).
 */
export const UNTRUSTED_ORIGIN_POLICIES = ['ask', 'accept', 'refuse'] as const;
/**
 * 'ask' (the default, as the real IDE does): the request waits, unanswered, until the question is answered
 * with `confirmPending()` or `POST /__simulator/confirmations?answer=yes|no`; 'accept': as if the visitor
 * answered yes at once; 'refuse': as if they answered no (HTTP 403). Answers are remembered like the IDE's.
 */
export type UntrustedOriginPolicy = (typeof UNTRUSTED_ORIGIN_POLICIES)[number];

/** The IDE remembers the answer to its "trust this host?" dialog, per scheme and host, for a day. */
export const TRUST_ANSWER_REMEMBERED_MS = 24 * 60 * 60 * 1000;

/** The IDE's built-in web server answers about 30 requests a minute per remote address. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 30;

/**
 * Hosts the real IDE trusts without asking when the page is served from them over https (over plain http
 * it asks, as for any host): the vendor's own marketplace hosts. Administrators add more with
 * `-Didea.api.install.hosts.trusted=...`, which `trustedHosts` imitates, with the same https rule.
 */
export const BUILT_IN_TRUSTED_HOSTS: readonly string[] = [
  'jetbrains.com',
  'marketplace.jetbrains.com',
  'plugins.jetbrains.com',
  'package-search.services.jetbrains.com',
  'package-search.jetbrains.com',
];

export interface EduToolsOptions {
  /** Whether the EduTools plugin is installed when the IDE starts. */
  installed: boolean;
  /** The EduTools version `/api/edu/marketplace/info` reports. */
  version?: string;
  /**
   * When EduTools is missing: milliseconds after an install request for `com.jetbrains.edu` until it is
   * installed (the visitor confirms the IDE's dialog and the download finishes). `null`: it never appears
   * (the visitor cancels).
   */
  appearsAfterInstallMs?: number | null;
}

export interface IdeSimulatorOptions {
  /** The loopback port to listen on; 0 picks a free one. Default 63342, the real IDE's first port. */
  port?: number;
  /** The IDE's full name, as `/api/installPlugin` reports it. */
  name?: string;
  /** The build number with its product code, e.g. `IU-252.23892.409`. */
  buildNumber?: string;
  /** The plugin ids this IDE knows, each with whether a version compatible with it exists. */
  plugins?: Readonly<Record<string, boolean>>;
  /** Hosts trusted in addition to the built-in ones, like the JVM option `idea.api.install.hosts.trusted`. */
  trustedHosts?: readonly string[];
  /** How the IDE's "trust this host?" dialog is answered for pages it does not trust. Default 'ask'. */
  untrustedOrigins?: UntrustedOriginPolicy;
  /** The EduTools plugin. Default: missing, and installed 3 s after it is requested. */
  eduTools?: EduToolsOptions;
  /** The course ids EduTools can open; others answer 404. Default: every course id. */
  courseIds?: readonly number[];
  /** Requests a minute per remote address before the IDE answers 429. Default 30; `Infinity` turns it off. */
  rateLimitPerMinute?: number;
  /** How long the IDE's install dialog keeps it busy; install requests meanwhile are ignored. Default 2000 ms. */
  installDurationMs?: number;
  /** The clock behind the rate-limit window and install timings (tests share a fake one). Default Date.now. */
  now?: () => number;
  /** Called after each request has been answered (the command prints them). */
  onRequest?: (request: ReceivedRequest) => void;
  /** Called when the IDE starts asking whether to trust a page (with the 'ask' policy). */
  onConfirmationRequested?: (confirmation: PendingConfirmation) => void;
}

/** A "trust this host?" question the IDE is showing, with the requests that wait for its answer. */
export interface PendingConfirmation {
  /** Names the question in `confirmPending(answer, id)` and `POST /__simulator/confirmations?id=`. */
  id: number;
  /** The page's host the IDE asks about; undefined when the request named no page ("unknown host"). */
  host: string | undefined;
  /** The page as the first waiting request named it (Origin, else Referer). */
  page: string | undefined;
  /** When the IDE started asking, by the simulator's clock (ms). */
  since: number;
  /** How many requests wait for the answer. */
  waiting: number;
}

/** A request the simulator received, as it answered it. */
export interface ReceivedRequest {
  /** When it arrived, by the simulator's clock (ms). */
  at: number;
  method: string;
  /** The path without the query, e.g. `/api/installPlugin`. */
  path: string;
  /** The query parameters (the last value wins when one repeats). */
  query: Record<string, string>;
  /** The Origin header, when the caller sent one. */
  origin: string | undefined;
  /** The HTTP status the simulator answered. */
  status: number;
  /** Set when an install request was answered 200 but ignored because another install was running. */
  ignored?: true;
  /** Set when the request waited for the answer to the IDE's "trust this host?" question. */
  askedToTrust?: true;
}

export interface ResolvedOptions {
  port: number;
  name: string;
  buildNumber: string;
  productCode: string;
  baselineVersion: number;
  plugins: ReadonlyMap<string, boolean>;
  trustedHosts: ReadonlySet<string>;
  untrustedOrigins: UntrustedOriginPolicy;
  eduTools: Required<EduToolsOptions>;
  courseIds: ReadonlySet<number> | undefined;
  rateLimitPerMinute: number;
  installDurationMs: number;
  now: () => number;
  onRequest: ((request: ReceivedRequest) => void) | undefined;
  onConfirmationRequested: ((confirmation: PendingConfirmation) => void) | undefined;
}

export const DEFAULT_IDE_NAME = 'IntelliJ IDEA 2025.2';
export const DEFAULT_BUILD_NUMBER = 'IU-252.23892.409';
export const DEFAULT_EDUTOOLS_VERSION = '2025.10';

function fail(message: string): never {
  throw new RangeError(`IDE simulator: ${message}`);
}

function nonNegativeMilliseconds(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 0)
    fail(`${what} must be a number of milliseconds >= 0, got ${value}.`);
  return value;
}

/** Checks every option and fills in the defaults; throws a RangeError naming the bad option. */
export function resolveOptions(options: IdeSimulatorOptions = {}): ResolvedOptions {
  const port = options.port ?? 63342;
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`port must be 0-65535, got ${port}.`);

  const name = (options.name ?? DEFAULT_IDE_NAME).trim();
  if (name === '') fail('name must not be empty.');

  const buildNumber = (options.buildNumber ?? DEFAULT_BUILD_NUMBER).trim();
  const parsed = parseBuildNumber(buildNumber);
  const baselineVersion = parsed?.components[0];
  if (!parsed?.productCode || baselineVersion === undefined) {
    fail(
      `build number must look like "IU-252.23892.409" (product code, dash, numbers), got "${buildNumber}".`,
    );
  }

  const plugins = new Map<string, boolean>();
  for (const [id, compatible] of Object.entries(options.plugins ?? {})) {
    if (id.trim() === '') fail('plugin ids must not be empty.');
    if (typeof compatible !== 'boolean') fail(`plugin "${id}" must map to true or false.`);
    plugins.set(id, compatible);
  }

  const trustedHosts = new Set(BUILT_IN_TRUSTED_HOSTS);
  for (const host of options.trustedHosts ?? []) {
    const normalized = host.trim().toLowerCase();
    if (normalized === '' || /[/:\s]/.test(normalized)) {
      fail(`trusted hosts are bare host names such as "marketplace.example.com", got "${host}".`);
    }
    trustedHosts.add(normalized);
  }

  const untrustedOrigins = options.untrustedOrigins ?? 'ask';
  if (!UNTRUSTED_ORIGIN_POLICIES.includes(untrustedOrigins)) {
    fail(`untrustedOrigins must be 'ask', 'accept' or 'refuse', got "${String(untrustedOrigins)}".`);
  }

  const eduToolsOption = options.eduTools ?? { installed: false };
  const appearsAfterInstallMs =
    eduToolsOption.appearsAfterInstallMs === undefined ? 3_000 : eduToolsOption.appearsAfterInstallMs;
  if (appearsAfterInstallMs !== null) {
    nonNegativeMilliseconds(appearsAfterInstallMs, 'eduTools.appearsAfterInstallMs');
  }
  const eduTools = {
    installed: eduToolsOption.installed,
    version: eduToolsOption.version ?? DEFAULT_EDUTOOLS_VERSION,
    appearsAfterInstallMs,
  };

  let courseIds: Set<number> | undefined;
  if (options.courseIds) {
    courseIds = new Set();
    for (const id of options.courseIds) {
      if (!Number.isSafeInteger(id) || id <= 0) fail(`course ids must be positive integers, got ${id}.`);
      courseIds.add(id);
    }
  }

  const rateLimitPerMinute = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  if (
    !(rateLimitPerMinute >= 1) ||
    (Number.isFinite(rateLimitPerMinute) && !Number.isInteger(rateLimitPerMinute))
  ) {
    fail(`rateLimitPerMinute must be a whole number >= 1 or Infinity, got ${rateLimitPerMinute}.`);
  }

  const installDurationMs = nonNegativeMilliseconds(options.installDurationMs ?? 2_000, 'installDurationMs');

  return {
    port,
    name,
    buildNumber,
    productCode: parsed.productCode,
    baselineVersion,
    plugins,
    trustedHosts,
    untrustedOrigins,
    eduTools,
    courseIds,
    rateLimitPerMinute,
    installDurationMs,
    now: options.now ?? Date.now,
    onRequest: options.onRequest,
    onConfirmationRequested: options.onConfirmationRequested,
  };
}
