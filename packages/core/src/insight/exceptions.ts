/**
 * The exception analyzer's rules: where IDEs send a plugin's error reports, what a group of reports can be
 * marked as, how plugin versions are ordered (a group fixed in a version reopens when a later one fails),
 * and the bounds on what a report may carry and what is kept of it.
 */

/**
 * The path the IDE's error reporter posts to (`ITNReporter`'s `createScr`), on the marketplace's origin.
 */
export const EXCEPTION_REPORT_PATH = '/trackerRpc/idea/createScr';

/** The one line of Kotlin that points a plugin's error reporter at a marketplace. */
export function reporterDeclaration(origin: string): string {
  return `class Reporter : ITNReporter("${origin.replace(/\/+$/, '')}${EXCEPTION_REPORT_PATH}")`;
}

/**
 * What the item's people say about a group: `new` (nobody has looked, or it came back), `investigating`,
 * `fixed` (in a version they name), `ignored` (reports are still counted).
 */
export const EXCEPTION_STATUSES = ['new', 'investigating', 'fixed', 'ignored'] as const;
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];

export const EXCEPTION_STATUS_LABELS: Readonly<Record<ExceptionStatus, string>> = {
  new: 'New',
  investigating: 'Investigating',
  fixed: 'Fixed',
  ignored: 'Ignored',
};

export function isExceptionStatus(value: unknown): value is ExceptionStatus {
  return typeof value === 'string' && (EXCEPTION_STATUSES as readonly string[]).includes(value);
}

/** A status as people read it: `Fixed in 1.4.2`. */
export function exceptionStatusText(status: ExceptionStatus, fixedInVersion: string | null): string {
  return status === 'fixed' && fixedInVersion
    ? `Fixed in ${fixedInVersion}`
    : EXCEPTION_STATUS_LABELS[status];
}

/** The bounds of the receiving end and of what is kept. */
export const EXCEPTION_LIMITS = {
  /** A report as it comes over the wire (gzipped as the IDE sends it, or plain). */
  compressedBytes: 2 * 1024 * 1024,
  /** A report once decompressed: the form with its attachments (which are read past, never kept). */
  decompressedBytes: 8 * 1024 * 1024,
  /** The stack trace, in characters (a deep StackOverflowError with causes is about 200 KB). */
  stackTraceChars: 1024 * 1024,
  /** The plugin id, in characters (as plugin.xml allows). */
  pluginIdChars: 255,
  /** The error message, the user's comment, and every other field, in characters: longer ones are cut. */
  messageChars: 10_000,
  commentChars: 10_000,
  fieldChars: 200,
  /** Attachment names noted per report. */
  attachmentNames: 20,
  /** Reports accepted per minute from one client address. */
  reportsPerMinute: 60,
} as const;

/**
 * What is kept per group: every report is counted (per day, version, IDE build, OS and Java), but only the
 * newest {@link storedReports} reports are kept whole, plus the newest {@link storedComments} that carry a
 * user's comment; installations are counted exactly up to {@link countedInstallations}.
 */
export const EXCEPTION_RETENTION = {
  storedReports: 50,
  storedComments: 200,
  countedInstallations: 10_000,
} as const;

/** The "recent" count of the group list: reports of the last 30 days (today included). */
export const RECENT_EXCEPTION_DAYS = 30;

/** Qualifiers that mark a version before its release: `1.0-beta` < `1.0`. */
const PRE_RELEASE_RANKS: ReadonlyMap<string, number> = new Map([
  ['dev', 0],
  ['snapshot', 1],
  ['alpha', 2],
  ['a', 2],
  ['beta', 3],
  ['b', 3],
  ['eap', 4],
  ['preview', 4],
  ['m', 5],
  ['milestone', 5],
  ['rc', 6],
  ['cr', 6],
]);
/** Qualifiers that name the release itself: `1.0-final` = `1.0`. */
const RELEASE_WORDS = new Set(['final', 'ga', 'release', 'stable']);

type VersionToken = { kind: 'number'; digits: string } | { kind: 'word'; text: string };

function versionTokens(version: string): VersionToken[] {
  // Build metadata (`+build.5`) does not order versions (semantic versioning), nor a leading `v`.
  const core = version.trim().toLowerCase().split('+')[0] ?? '';
  const text = core.replace(/^v(?=\d)/, '');
  const tokens: VersionToken[] = [];
  for (const match of text.matchAll(/\d+|[^\d\W_]+/gu)) {
    const part = match[0];
    if (/^\d/.test(part)) tokens.push({ kind: 'number', digits: part.replace(/^0+(?=\d)/, '') });
    else if (!RELEASE_WORDS.has(part)) tokens.push({ kind: 'word', text: part });
  }
  return tokens;
}

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return Math.sign(a.length - b.length);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Where a missing token (the shorter version has ended) stands against a token of the longer one. */
function compareWithEnd(token: VersionToken): number {
  if (token.kind === 'number') return token.digits === '0' ? 0 : -1;
  // `1.0` > `1.0-beta`; `1.0` < `1.0-sp1` (an unknown word after a release is a later build of it).
  return PRE_RELEASE_RANKS.has(token.text) ? 1 : -1;
}

/**
 * Orders plugin versions as people mean them: negative when `a` is older. Numbers compare as numbers
 * (`1.10` > `1.9`, any length), missing trailing zeros do not count (`1.0` = `1.0.0`), a pre-release is
 * older than its release (`2.0-beta.2` < `2.0-rc1` < `2.0` < `2.0.1`), a number is newer than a word in the
 * same place, and other words compare alphabetically. A leading `v` and `+build` metadata are ignored.
 */
export function comparePluginVersions(a: string, b: string): number {
  const first = versionTokens(a);
  const second = versionTokens(b);
  const length = Math.max(first.length, second.length);
  for (let index = 0; index < length; index++) {
    const left = first[index];
    const right = second[index];
    let difference = 0;
    if (left === undefined || right === undefined) {
      // Reading on past the shorter one's end: `1.0` = `1.0.0` but `1.0` < `1.0.0.5`.
      if (left !== undefined) difference = -compareWithEnd(left);
      else if (right !== undefined) difference = compareWithEnd(right);
    } else if (left.kind === 'number' && right.kind === 'number')
      difference = compareDigits(left.digits, right.digits);
    else if (left.kind === 'number') difference = 1;
    else if (right.kind === 'number') difference = -1;
    else {
      const leftRank = PRE_RELEASE_RANKS.get(left.text);
      const rightRank = PRE_RELEASE_RANKS.get(right.text);
      if (leftRank !== undefined && rightRank !== undefined) difference = Math.sign(leftRank - rightRank);
      else if (leftRank !== undefined) difference = -1;
      else if (rightRank !== undefined) difference = 1;
      else difference = left.text < right.text ? -1 : left.text > right.text ? 1 : 0;
    }
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Whether a report from `reportedVersion` reopens a group marked fixed in `fixedInVersion`: only a version
 * later than the fix does (older installations keep failing until they update). An unknown version does not.
 */
export function reopensFixedGroup(fixedInVersion: string, reportedVersion: string): boolean {
  if (reportedVersion.trim() === '' || fixedInVersion.trim() === '') return false;
  return comparePluginVersions(reportedVersion, fixedInVersion) > 0;
}

/** The note a reopened group carries, saying why it is new again. */
export function reopenNote(fixedInVersion: string, reportedVersion: string): string {
  return `Reopened: a report came from version ${reportedVersion}, later than ${fixedInVersion} where it was marked fixed.`;
}
