import {
  CURRENCIES,
  currencyOf,
  DEFAULT_CURRENCY_CODE,
  type ConsentRequirement,
  type Currency,
} from '@marketplace/core';
import type { SiteLinks } from '@marketplace/api-contract';
import { resolve } from 'node:path';
import { AuthConfigError, authConfigFromEnv, type AuthConfig } from './auth/config';

/** Everything the server reads from its environment, parsed and checked once at start. */
export interface Config {
  /** TCP port to listen on (PORT, default 8080). */
  port: number;
  /** Interface to listen on (HOST, default 127.0.0.1; set 0.0.0.0 to serve other machines). */
  host: string;
  /** Folder for the embedded database and the file store (DATA_DIR, default ./.data), absolute. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database in dataDir is used. */
  databaseUrl: string | undefined;
  /** The address visitors and IDEs reach the server at, without a trailing slash (PUBLIC_URL). */
  publicUrl: string;
  /** Load the demo catalogue into an empty database at start (opt out: --no-demo or DEMO=false). */
  loadDemo: boolean;
  /** Pino log level (LOG_LEVEL, default info; "silent" turns logging off). */
  logLevel: string;
  /** NODE_ENV=production: no pretty errors, stricter defaults. */
  production: boolean;
  /** Seconds public answers may be cached by browsers and proxies (CACHE_MAX_AGE, default 60). */
  cacheMaxAgeSeconds: number;
  /**
   * How long this process keeps serialized public answers to replay them (RESPONSE_CACHE_MS, default 5000;
   * 0 turns it off). It is only a cache: every process answers correctly without it.
   */
  responseCacheMs: number;
  /**
   * Seconds a connection may stay silent in the middle of a request or an answer before it is closed
   * (HTTP_IDLE_TIMEOUT_SECONDS, default 60; 0: never): an upload whose body stopped half-way, a download
   * nobody reads. Closing frees the connection, the open file and the memory they hold.
   */
  idleTimeoutSeconds: number;
  /**
   * Whether X-Forwarded-* headers are believed (TRUST_PROXY, default false). Only behind a reverse proxy
   * that sets them: otherwise anyone could pick the address that per-address rate limits count by.
   * `true`, or a comma-separated list of proxy addresses or networks.
   */
  trustProxy: boolean | string;
  /** Sign-in: the embedded or an external OpenID Connect issuer, token rules, rate limits (src/auth). */
  auth: AuthConfig;
  /** Selling (src/commerce). */
  commerce: CommerceConfig;
  /** Statistics and the exception analyzer (src/insight). */
  insight: InsightConfig;
  /** Performance figures and /metrics (src/admin/performance). */
  performance: PerformanceConfig;
  /** Where uploaded files are kept: DATA_DIR/files, or an S3-compatible bucket (src/storage). */
  storage: StorageConfig;
  /** The site's fixed external links (spec §2), shown in its footer; an unset one is not shown. */
  siteLinks: SiteLinks;
}

export interface StorageConfig {
  /** The S3-compatible bucket files are kept in (S3_BUCKET set); undefined: the disk store in DATA_DIR/files. */
  s3: S3StorageConfig | undefined;
}

export interface S3StorageConfig {
  /** S3_BUCKET. */
  bucket: string;
  /** S3_ENDPOINT: the address of an S3-compatible server (MinIO, Ceph, Garage); undefined: AWS S3. */
  endpoint: string | undefined;
  /** S3_REGION (default us-east-1). */
  region: string;
  /**
   * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (both or neither); undefined: the AWS SDK's default credential
   * chain (AWS_* variables, shared config files, instance or container roles).
   */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Addresses `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (S3_FORCE_PATH_STYLE). */
  forcePathStyle: boolean;
  /** Prepended to every object key: empty, or ending with `/` (S3_PREFIX). */
  prefix: string;
  /** Plugin downloads answered with a redirect to a presigned bucket address (S3_PRESIGNED_DOWNLOADS). */
  presignedDownloads: boolean;
  /** How long a presigned download address works (S3_PRESIGNED_URL_SECONDS, default 300). */
  presignedUrlSeconds: number;
}

export interface InsightConfig {
  /**
   * An MMDB country database to use instead of the one shipped with the server (GEOIP_DATABASE, a file
   * path; e.g. MaxMind's GeoLite2-Country.mmdb).
   */
  geoipDatabase: string | undefined;
  /** How often the statistics roll-up job runs, in seconds (INSIGHT_ROLLUP_SECONDS, default 300; 0: never). */
  rollupIntervalSeconds: number;
  /**
   * Whole months of raw download and update-check events kept before the current one (INSIGHT_EVENTS_MONTHS,
   * default 13); older months are dropped, their daily roll-ups stay.
   */
  keepEventMonths: number;
  /**
   * Whose downloads and update checks need the visitor's consent before a visitor hash is made
   * (CONSENT_REQUIRED: false/none, the default, where only a decline stops it; browsers; true/all, the IDE's
   * own requests included, which carry no cookie and so are never hashed). See src/admin/README.md, Consent.
   */
  consentRequired: ConsentRequirement;
}

export interface PerformanceConfig {
  /** Whether request and query figures are collected from start (PERFORMANCE_METRICS, default true). */
  enabled: boolean;
  /** Queries at least this slow are listed with their normalised text (SLOW_QUERY_MS, default 100). */
  slowQueryMs: number;
  /**
   * The bearer token a scraper of /metrics sends (METRICS_TOKEN). Without one, /metrics answers only
   * requests from the server's own machine (loopback).
   */
  metricsToken: string | undefined;
}

export interface CommerceConfig {
  /** The one currency prices, orders and sales are kept in (CURRENCY, default USD). */
  currency: Currency;
  /** The marketplace's share of each sale after discounts, in whole percent (COMMISSION_PERCENT, default 15). */
  commissionPercent: number;
  /** Days an invoice of the built-in invoice provider is payable in (INVOICE_DUE_DAYS, default 14). */
  invoiceDueDays: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function parseInteger(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const normalized = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

function parseTrustProxy(raw: string | undefined): boolean | string {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^[0-9a-fA-F.:/,\s]+$/.test(value) && /[.:]/.test(value)) return value;
  throw new ConfigError(`TRUST_PROXY must be true, false or a list of proxy addresses, got "${raw}".`);
}

function parseCurrency(raw: string | undefined): Currency {
  const code = raw?.trim() || DEFAULT_CURRENCY_CODE;
  const currency = currencyOf(code);
  if (!currency) {
    throw new ConfigError(`CURRENCY must be one of ${Object.keys(CURRENCIES).join(', ')}, got "${raw}".`);
  }
  return currency;
}

function parsePublicUrl(raw: string | undefined, fallback: string): string {
  if (raw === undefined || raw.trim() === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) address, got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PUBLIC_URL must start with http:// or https://, got "${raw}".`);
  }
  return url.toString().replace(/\/+$/, '');
}

function parseLinkUrl(name: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(`${name} must be an http:// or https:// address, got "${raw}".`);
  }
  return url.toString();
}

/** The footer's links (SOCIAL_LINKS, BLOG_URL, …, SUPPORT_EMAIL); an empty or unset value leaves a link out. */
export function siteLinksFromEnv(env: NodeJS.ProcessEnv): SiteLinks {
  const links: SiteLinks = { social: [] };
  const urls = [
    ['blog', 'BLOG_URL'],
    ['videos', 'VIDEO_PLAYLIST_URL'],
    ['issueTracker', 'ISSUE_TRACKER_URL'],
    ['forum', 'FORUM_URL'],
    ['privacy', 'PRIVACY_URL'],
  ] as const;
  for (const [key, name] of urls) {
    const raw = env[name]?.trim();
    if (raw) links[key] = parseLinkUrl(name, raw);
  }
  const email = env.SUPPORT_EMAIL?.trim().replace(/^mailto:/i, '');
  if (email) {
    if (!/^[^\s@<>"',]+@[^\s@<>"',]+\.[^\s@<>"',]+$/.test(email)) {
      throw new ConfigError(`SUPPORT_EMAIL must be an email address, got "${env.SUPPORT_EMAIL}".`);
    }
    links.supportEmail = email;
  }
  for (const entry of (env.SOCIAL_LINKS ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const label = equals > 0 ? entry.slice(0, equals).trim() : '';
    if (label === '' || label.length > 40) {
      throw new ConfigError(
        `SOCIAL_LINKS must list Label=https://… entries separated by commas (e.g. "X=https://x.com/acme,YouTube=https://youtube.com/@acme"), got "${entry.trim()}".`,
      );
    }
    links.social.push({ label, url: parseLinkUrl('SOCIAL_LINKS', entry.slice(equals + 1).trim()) });
  }
  return links;
}

function parseConsentRequirement(raw: string | undefined): ConsentRequirement {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['', 'false', 'no', 'off', '0', 'none'].includes(value)) return 'none';
  if (['true', 'yes', 'on', '1', 'all'].includes(value)) return 'all';
  if (value === 'browsers') return 'browsers';
  throw new ConfigError(`CONSENT_REQUIRED must be false, browsers or true, got "${raw}".`);
}

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
  'S3_PRESIGNED_DOWNLOADS',
  'S3_PRESIGNED_URL_SECONDS',
] as const;

/** The longest a presigned address may work (S3 refuses more than 7 days). */
const MAX_PRESIGNED_SECONDS = 604_800;

/** The file store's settings (S3_*): also read by CLI commands that open the store. */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv): StorageConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const bucket = value('S3_BUCKET');
  if (bucket === undefined) {
    // Files would silently go to the disk: an S3 setting without a bucket is a mistake.
    const stray = S3_SETTINGS.find((name) => value(name) !== undefined);
    if (stray) {
      throw new ConfigError(
        `${stray} is set but S3_BUCKET is not: set S3_BUCKET to keep files in S3, or unset ${stray}.`,
      );
    }
    return { s3: undefined };
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      `S3_BUCKET must be a bucket name (3 to 255 letters, digits, ".", "_" or "-"), got "${env.S3_BUCKET}".`,
    );
  }
  const endpoint = value('S3_ENDPOINT');
  if (endpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError(
        `S3_ENDPOINT must be an http:// or https:// address (e.g. http://127.0.0.1:9000), got "${env.S3_ENDPOINT}".`,
      );
    }
  }
  const region = value('S3_REGION') ?? 'us-east-1';
  if (!/^[A-Za-z0-9-]+$/.test(region)) {
    throw new ConfigError(`S3_REGION must be a region name such as us-east-1, got "${env.S3_REGION}".`);
  }
  const accessKeyId = value('S3_ACCESS_KEY_ID');
  const secretAccessKey = value('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    const missing = accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
    throw new ConfigError(
      `S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together, but ${missing} is not set: set both, or ` +
        "neither to use the AWS SDK's default credentials.",
    );
  }
  let prefix = env.S3_PREFIX?.trim() ?? '';
  const oddCharacter = [...prefix].some((c) => c < ' ' || c === '\u007f' || c === '\\');
  if (prefix.startsWith('/') || prefix.includes('//') || oddCharacter) {
    throw new ConfigError(
      `S3_PREFIX must be a key prefix such as "marketplace/" (no leading "/", no "//", no control characters or "\\"), got "${env.S3_PREFIX}".`,
    );
  }
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  return {
    s3: {
      bucket,
      endpoint,
      region,
      credentials:
        accessKeyId !== undefined && secretAccessKey !== undefined
          ? { accessKeyId, secretAccessKey }
          : undefined,
      forcePathStyle: parseBoolean('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, endpoint !== undefined),
      prefix,
      presignedDownloads: parseBoolean('S3_PRESIGNED_DOWNLOADS', env.S3_PRESIGNED_DOWNLOADS, false),
      presignedUrlSeconds: parseInteger(
        'S3_PRESIGNED_URL_SECONDS',
        env.S3_PRESIGNED_URL_SECONDS,
        300,
        1,
        MAX_PRESIGNED_SECONDS,
      ),
    },
  };
}

/**
 * Reads the configuration from environment variables and command-line flags.
 * Throws ConfigError with a message meant for the person starting the server.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv.slice(2),
  cwd: string = process.cwd(),
): Config {
  for (const flag of argv) {
    if (flag !== '--no-demo' && flag !== '--demo') {
      throw new ConfigError(`Unknown option "${flag}". Known options: --no-demo.`);
    }
  }
  const port = parseInteger('PORT', env.PORT, 8080, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const logLevel = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}".`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string.');
  }
  const demoFromEnv = parseBoolean('DEMO', env.DEMO, true) && !parseBoolean('NO_DEMO', env.NO_DEMO, false);
  const shownHost = ['0.0.0.0', '::', '127.0.0.1'].includes(host) ? 'localhost' : host;
  const dataDir = resolve(cwd, env.DATA_DIR?.trim() || '.data');
  const publicUrl = parsePublicUrl(
    env.PUBLIC_URL,
    `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
  );
  let auth: AuthConfig;
  try {
    auth = authConfigFromEnv(env, { publicUrl, dataDir });
  } catch (error) {
    if (error instanceof AuthConfigError) throw new ConfigError(error.message);
    throw error;
  }
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    publicUrl,
    loadDemo: argv.includes('--no-demo') ? false : demoFromEnv,
    logLevel,
    production: env.NODE_ENV === 'production',
    cacheMaxAgeSeconds: parseInteger('CACHE_MAX_AGE', env.CACHE_MAX_AGE, 60, 0, 31_536_000),
    responseCacheMs: parseInteger('RESPONSE_CACHE_MS', env.RESPONSE_CACHE_MS, 5000, 0, 3_600_000),
    idleTimeoutSeconds: parseInteger(
      'HTTP_IDLE_TIMEOUT_SECONDS',
      env.HTTP_IDLE_TIMEOUT_SECONDS,
      60,
      0,
      86_400,
    ),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    auth,
    commerce: {
      currency: parseCurrency(env.CURRENCY),
      commissionPercent: parseInteger('COMMISSION_PERCENT', env.COMMISSION_PERCENT, 15, 0, 100),
      invoiceDueDays: parseInteger('INVOICE_DUE_DAYS', env.INVOICE_DUE_DAYS, 14, 1, 365),
    },
    performance: {
      enabled: parseBoolean('PERFORMANCE_METRICS', env.PERFORMANCE_METRICS, true),
      slowQueryMs: parseInteger('SLOW_QUERY_MS', env.SLOW_QUERY_MS, 100, 0, 3_600_000),
      metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    },
    insight: {
      geoipDatabase: env.GEOIP_DATABASE?.trim() ? resolve(cwd, env.GEOIP_DATABASE.trim()) : undefined,
      rollupIntervalSeconds: parseInteger(
        'INSIGHT_ROLLUP_SECONDS',
        env.INSIGHT_ROLLUP_SECONDS,
        300,
        0,
        86_400,
      ),
      keepEventMonths: parseInteger('INSIGHT_EVENTS_MONTHS', env.INSIGHT_EVENTS_MONTHS, 13, 1, 120),
      consentRequired: parseConsentRequirement(env.CONSENT_REQUIRED),
    },
    storage: storageConfigFromEnv(env),
    siteLinks: siteLinksFromEnv(env),
  };
}
