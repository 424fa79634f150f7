import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { ScannedEntry } from './archive-walk';
import type { ScanFinding, ScanSeverity } from './findings';

/*
 * Secrets committed by mistake. Tokens of known services come from secretlint's recommended rules
 * (@secretlint/secretlint-rule-preset-recommend: AWS secret keys, GitHub, GitLab, Slack, npm, GCP, OpenAI,
 * and more, each kept up to date by its maintainers); three rules of our own add what it leaves out: private
 * keys of every PEM kind (secretlint's rule skips short keys such as Ed25519 and encrypted ones), AWS access
 * key ids, and `password=` / `secret=` / `token=` assignments whose value looks random (Shannon entropy).
 */

type ConfigRules = Parameters<typeof lintSource>[0]['options']['config']['rules'];

/**
 * The recommended rules one by one, without `filter-comments` (a `secretlint-disable` comment in the archive
 * would otherwise let its author silence the scan) and without `privatekey` (our own rule covers every kind).
 */
const SECRETLINT_RULES: ConfigRules = recommendedRules
  .filter(
    (rule) =>
      rule.meta.id !== '@secretlint/secretlint-rule-filter-comments' &&
      rule.meta.id !== '@secretlint/secretlint-rule-privatekey',
  )
  .map((rule) => ({ id: rule.meta.id, rule }));

/** Credentials in URLs are often examples in documentation and templates: a moderator looks, nothing is held. */
const MEDIUM_RULES = new Set([
  '@secretlint/secretlint-rule-basicauth',
  '@secretlint/secretlint-rule-database-connection-string',
]);

/** Names of the services behind secretlint's rules, for messages. */
function serviceOf(ruleId: string): string {
  const name = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  const known: Record<string, string> = {
    aws: 'AWS',
    gcp: 'Google Cloud',
    npm: 'npm',
    basicauth: 'Basic authentication',
    slack: 'Slack',
    sendgrid: 'SendGrid',
    shopify: 'Shopify',
    github: 'GitHub',
    gitlab: 'GitLab',
    openai: 'OpenAI',
    anthropic: 'Anthropic',
    '1password': '1Password',
    'database-connection-string': 'database connection',
    'hashicorp-vault': 'HashiCorp Vault',
  };
  return known[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

/** "A" or "An" before a service's name, as it is spoken ("an npm token", "an AWS key"). */
function article(name: string): string {
  return /^(?:[aeiou]|npm|1password)/i.test(name) ? 'An' : 'A';
}

/** `GITHUB_TOKEN` and `AWSSecretAccessKey` as words: "GitHub token", "AWS secret access key". */
function describeMessageId(messageId: string): string {
  return messageId
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}

type LintInput = Parameters<typeof lintSource>[0];
type LintResult = Awaited<ReturnType<typeof lintSource>>;

/** The secretlint run under way in this process: runs take turns (see {@link lintAndForgetTimings}). */
let lintTurn: Promise<void> = Promise.resolve();

/**
 * One secretlint run, with its timings let go afterwards. secretlint's profiler (`@secretlint/profiler`, one per
 * process) marks every rule of every run with `performance.mark` and keeps each mark and measure twice, in its
 * own lists and in Node's performance timeline, for as long as the process lives: a server that scans every
 * upload grew by thousands of entries a minute. Runs take turns so that a run's marks are never cleared while
 * another run still measures between them (a measure between cleared marks throws).
 */
function lintAndForgetTimings(input: LintInput): Promise<LintResult> {
  const run = lintTurn.then(async () => {
    try {
      return await lintSource(input);
    } finally {
      // The profiler hears of marks one turn of the event loop later and measures them in promises it keeps.
      await nextTurn();
      await secretLintProfiler.getMeasures();
      await nextTurn();
      const marks = await secretLintProfiler.getEntries();
      const measures = await secretLintProfiler.getMeasures();
      for (const name of new Set(marks.map((entry) => entry.name))) performance.clearMarks(name);
      for (const name of new Set(measures.map((entry) => entry.name))) performance.clearMeasures(name);
      marks.length = 0;
      measures.length = 0;
    }
  });
  // The next run waits for this one, not for its result: the queue keeps no scan's messages.
  lintTurn = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Bits of information per character of `text` (Shannon entropy over its characters). */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bits = 0;
  const length = [...text].length;
  for (const count of counts.values()) {
    const share = count / length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/** The start of a secret and its length, never the secret: findings are read by people. */
export function redact(secret: string): string {
  const visible = secret.slice(0, Math.min(4, Math.floor(secret.length / 4)));
  return `${visible}… (${secret.length} characters)`;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** `-----BEGIN … PRIVATE KEY-----`, optional PEM headers (Proc-Type, DEK-Info), a body, the matching END. */
const PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----\r?\n(?:[A-Za-z-]+: [^\r\n]*\r?\n)*\r?\n?([A-Za-z0-9+/=\r\n]{40,})-----END \1PRIVATE KEY\2-----/g;

/** AWS access key ids: a known prefix and 16 base-32 characters. AWS's documented example key is left out. */
const AWS_ACCESS_KEY_ID = /(?<![A-Z0-9])((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Z0-9])/g;

/**
 * `name = value` and `name: value` where the name speaks of a secret and the value is one unbroken token
 * (quoted or not). Code such as `token = readToken()` or `password=${DB_PASSWORD}` does not match: the value
 * must start at once with a character of the token alphabet and run 16 characters or more.
 */
const SECRET_ASSIGNMENT =
  /(?<![A-Za-z0-9_])([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|private[_.-]?key|credentials?)[A-Za-z0-9_.-]*)["']?\s*[:=]\s*["']?([A-Za-z0-9+/=_.~-]{16,256})(?![A-Za-z0-9+/=_.~-])/gi;

/** Values at least this random (bits per character) are reported: random keys score 4 and more, words less. */
export const SECRET_ENTROPY_BITS = 3.5;

function looksLikeSecretValue(value: string): boolean {
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // Versions, class names and dotted paths are not secrets.
  if (/^[0-9.]+$/.test(value) || /^[a-z]+(\.[a-z0-9]+)+$/i.test(value)) return false;
  return shannonEntropy(value) >= SECRET_ENTROPY_BITS;
}

/** Text an entry holds, or undefined for binary content other than class files (images, fonts, natives). */
export function textOf(entry: ScannedEntry): { text: string; classFile: boolean } | undefined {
  if (entry.isArchive || entry.content.length === 0) return undefined;
  if (/\.class$/i.test(entry.name)) {
    // A constant of the class pool is stored as (modified) UTF-8: keys and tokens are plain ASCII in it.
    return { text: entry.content.toString('latin1'), classFile: true };
  }
  const sample = entry.content.subarray(0, 8192);
  if (sample.includes(0)) return undefined;
  return { text: entry.content.toString('utf8'), classFile: false };
}

/** At most this many secret findings per entry: a file full of keys needs one look, not a hundred rows. */
const MAX_FINDINGS_PER_ENTRY = 10;

/**
 * Texts are handed to secretlint together, joined by blank lines, once this many characters are waiting:
 * one call over a megabyte costs about what one call over a small file does (the rules are set up per
 * call), so a jar of thousands of classes is read in a few calls. No token spans a line break.
 */
const BATCH_CHARACTERS = 1_000_000;
const SEPARATOR = '\n\n';

interface Candidate {
  severity: ScanSeverity;
  message: string;
  range: [number, number];
}

interface Part {
  entry: ScannedEntry;
  text: string;
  classFile: boolean;
  /** Where the text starts in the joined batch. */
  offset: number;
  specific: Candidate[];
  generic: Candidate[];
}

function where(part: Pick<Part, 'text' | 'classFile'>, index: number): string {
  return part.classFile ? 'in a constant of this class file' : `on line ${lineOf(part.text, index)}`;
}

/** Private keys, AWS access key ids and (text only) high-entropy assignments: our own rules. */
function ownCandidates(part: Pick<Part, 'text' | 'classFile'>): {
  specific: Candidate[];
  generic: Candidate[];
} {
  const { text, classFile } = part;
  const specific: Candidate[] = [];
  const generic: Candidate[] = [];
  for (const match of text.matchAll(PRIVATE_KEY)) {
    const kind = `${match[1] ?? ''}PRIVATE KEY${match[2] ?? ''}`.trim();
    const encrypted = /ENCRYPTED/.test(kind) || /Proc-Type: 4,ENCRYPTED/.test(match[0]);
    specific.push({
      severity: encrypted ? 'medium' : 'high',
      message: encrypted
        ? `A private key protected by a passphrase (${kind}) ${where(part, match.index)}. Keys do not belong in a plugin: remove it and replace the key.`
        : `A private key (${kind}) ${where(part, match.index)}. Anyone who downloads the plugin could use it: revoke the key and upload a version without it.`,
      range: [match.index, match.index + match[0].length],
    });
  }
  for (const match of text.matchAll(AWS_ACCESS_KEY_ID)) {
    const id = match[1]!;
    if (id.endsWith('EXAMPLE')) continue;
    specific.push({
      severity: 'high',
      message: `An AWS access key id (${redact(id)}) ${where(part, match.index)}. Deactivate the key in AWS and upload a version without it.`,
      range: [match.index, match.index + id.length],
    });
  }
  if (!classFile) {
    for (const match of text.matchAll(SECRET_ASSIGNMENT)) {
      const name = match[1]!;
      const value = match[2]!;
      if (!looksLikeSecretValue(value)) continue;
      const from = match.index + match[0].length - value.length;
      generic.push({
        severity: 'medium',
        message: `"${name.slice(0, 60)}" is given a random-looking value (${redact(value)}, ${shannonEntropy(value).toFixed(1)} bits a character) ${where(part, match.index)}: check that it is no real secret.`,
        range: [from, from + value.length],
      });
    }
  }
  return { specific, generic };
}

/**
 * Secrets in the entries of one archive, in the order they were added: our own rules at once, secretlint's
 * in batches (see BATCH_CHARACTERS). Call {@link add} for each entry and {@link finish} at the end.
 */
export class SecretScanner {
  private parts: Part[] = [];
  private characters = 0;

  constructor(private readonly report: (findings: ScanFinding[]) => void) {}

  async add(entry: ScannedEntry): Promise<void> {
    const source = textOf(entry);
    if (!source) return;
    const part = { entry, ...source, offset: this.characters };
    this.parts.push({ ...part, ...ownCandidates(part) });
    this.characters += source.text.length + SEPARATOR.length;
    if (this.characters >= BATCH_CHARACTERS) await this.flush();
  }

  async finish(): Promise<void> {
    await this.flush();
  }

  private async flush(): Promise<void> {
    const parts = this.parts;
    this.parts = [];
    this.characters = 0;
    if (parts.length === 0) return;
    const joined = parts.map((part) => part.text).join(SEPARATOR);
    const result = await lintAndForgetTimings({
      source: { filePath: '/archive-entries.txt', content: joined, ext: '.txt', contentType: 'text' },
      options: { config: { rules: SECRETLINT_RULES }, noPhysicFilePath: true },
    });
    const starts = parts.map((part) => part.offset);
    for (const message of result.messages) {
      const [from, to] = message.range;
      // The last part starting at or before the match.
      let low = 0;
      let high = parts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle]! <= from) low = middle;
        else high = middle - 1;
      }
      const part = parts[low]!;
      const local: [number, number] = [from - part.offset, to - part.offset];
      const service = serviceOf(message.ruleId);
      part.specific.push({
        severity: MEDIUM_RULES.has(message.ruleId) ? 'medium' : 'high',
        message: `${article(service)} ${service} credential (${describeMessageId(message.messageId)}: ${redact(part.text.slice(local[0], local[1]))}) ${where(part, local[0])}. Revoke it and upload a version without it.`,
        range: local,
      });
    }
    for (const part of parts) {
      const specific = part.specific.sort((a, b) => a.range[0] - b.range[0]);
      // A generic match over text a specific rule already named says nothing more.
      const generic = part.generic.filter(
        (candidate) =>
          !specific.some(({ range: [start, end] }) => start < candidate.range[1] && candidate.range[0] < end),
      );
      const findings = [...specific, ...generic]
        .slice(0, MAX_FINDINGS_PER_ENTRY)
        .map(({ severity, message }) => ({
          kind: 'secret' as const,
          severity,
          path: part.entry.path,
          message,
        }));
      if (findings.length > 0) this.report(findings);
    }
  }
}
