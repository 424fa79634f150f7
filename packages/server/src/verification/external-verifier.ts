import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  javaLevelOfBranch,
  parseBuildNumber,
  problemFingerprint,
  productByCode,
  productFullName,
  type VerificationTarget,
} from '@marketplace/core';
import type { Checker, Finding } from './checkers';

/** How the operator's IntelliJ Plugin Verifier is run: `java -jar <jar> check-plugin <archive> <ide>...`. */
export interface ExternalVerifierOptions {
  /** The verifier's CLI jar (`verifier-cli-<version>-all.jar`). */
  jar: string;
  /** The IDE installations to check against. */
  ideDirectories: readonly string[];
  /** The Java launcher (default `java`). */
  javaCommand: string;
  timeoutMs: number;
}

/** Most of the verifier's output kept in memory: reports of big plugins are long, but not this long. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The verifier's version as its jar's name tells it (`verifier-cli-1.384-all.jar` -> `1.384`). */
export function externalVerifierVersion(jar: string): string | null {
  return /(\d+(?:\.\d+)+)/.exec(basename(jar))?.[1] ?? null;
}

/** What one run of the external verifier gave: findings and the IDE builds it checked. */
export interface ExternalReport {
  findings: Finding[];
  targets: VerificationTarget[];
}

interface RunOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs the verifier as a child process (its own process group, killed whole when the time is up) and
 * reads its JSON report: from standard output, or from the `.json` files it wrote to the reports folder.
 */
export async function runExternalVerifier(
  options: ExternalVerifierOptions,
  archivePath: string,
): Promise<ExternalReport> {
  const reportsDirectory = await mkdtemp(join(tmpdir(), 'plugin-verifier-'));
  try {
    const outcome = await run(
      options.javaCommand,
      [
        '-jar',
        options.jar,
        'check-plugin',
        archivePath,
        ...options.ideDirectories,
        '-offline',
        '-verification-reports-formats',
        'json',
        '-verification-reports-dir',
        reportsDirectory,
      ],
      options.timeoutMs,
    );
    if (outcome.timedOut) {
      return failed(
        `The IntelliJ Plugin Verifier did not finish within ${Math.round(options.timeoutMs / 1000)} seconds and was stopped; its checks are missing from this result.`,
      );
    }
    const report = parseReport(outcome.stdout) ?? (await reportFromFolder(reportsDirectory));
    if (report === undefined) {
      const detail = (outcome.stderr.trim() || outcome.stdout.trim()).slice(-500);
      return failed(
        `The IntelliJ Plugin Verifier ended with exit code ${String(outcome.code)} without a report${detail ? `: ${detail}` : '.'}`,
      );
    }
    return report;
  } finally {
    await rm(reportsDirectory, { recursive: true, force: true }).catch(() => undefined);
  }
}

function failed(message: string): ExternalReport {
  return {
    findings: [
      {
        type: 'plugin-verifier',
        kind: 'verifier-failed',
        severity: 'warning',
        subject: 'run',
        message,
        builds: [],
      },
    ],
    targets: [],
  };
}

function run(command: string, args: string[], timeoutMs: number): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let kept = 0;
    let timedOut = false;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      kept += chunk.length;
      if (kept <= MAX_OUTPUT_BYTES) into.push(chunk);
    };
    child.stdout.on('data', keep(stdout));
    child.stderr.on('data', keep(stderr));
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const finish = (code: number | null) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
      });
    };
    child.on('error', (error) => {
      stderr.push(Buffer.from(error.message));
      finish(null);
    });
    child.on('close', finish);
  });
}

async function reportFromFolder(folder: string): Promise<ExternalReport | undefined> {
  const files = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  const reports = files.filter((file) => file.endsWith('.json'));
  const merged: ExternalReport = { findings: [], targets: [] };
  for (const file of reports) {
    const parsed = parseReport(await readFile(join(folder, file), 'utf8'));
    if (parsed === undefined) continue;
    merged.findings.push(...parsed.findings);
    merged.targets.push(...parsed.targets);
  }
  return reports.length === 0 ? undefined : merged;
}

interface ReportedProblem {
  message?: unknown;
  type?: unknown;
  problemType?: unknown;
  shortDescription?: unknown;
  fullDescription?: unknown;
}

/**
 * Reads the verifier's JSON: a list of results, or `{ "results": [...] }`, each result naming the IDE
 * (`ideVersion`) with `compatibilityProblems` (or `problems`) and `compatibilityWarnings` (or `warnings`),
 * each an object with `message` (or `fullDescription`/`shortDescription`) and `problemType` (or `type`).
 * Text before the JSON (the verifier's log lines) is skipped. Undefined when there is no such report.
 */
export function parseReport(text: string): ExternalReport | undefined {
  const start = text.search(/^\s*[[{]/m);
  if (start < 0) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
  const results = Array.isArray(document)
    ? document
    : isRecord(document) && Array.isArray(document['results'])
      ? document['results']
      : isRecord(document) && 'ideVersion' in document
        ? [document]
        : undefined;
  if (results === undefined) return undefined;
  const report: ExternalReport = { findings: [], targets: [] };
  for (const result of results) {
    if (!isRecord(result) || typeof result['ideVersion'] !== 'string') continue;
    const build = result['ideVersion'].trim();
    const parsed = parseBuildNumber(build);
    if (parsed === undefined) continue;
    const branch = parsed.components[0] ?? 0;
    const product = parsed.productCode === undefined ? undefined : productByCode(parsed.productCode);
    report.targets.push({
      productBuild: build,
      productName: product === undefined ? 'IDE' : productFullName(product),
      branch,
      release: '',
      javaLevel: javaLevelOfBranch(branch),
    });
    const add = (list: unknown, severity: 'problem' | 'warning') => {
      if (!Array.isArray(list)) return;
      for (const item of list as ReportedProblem[]) {
        const message = textOf(item.message) ?? textOf(item.fullDescription) ?? textOf(item.shortDescription);
        if (message === undefined) continue;
        const problemType = textOf(item.problemType) ?? textOf(item.type) ?? severity;
        report.findings.push({
          type: 'plugin-verifier',
          kind: severity === 'problem' ? 'verifier-problem' : 'verifier-warning',
          severity,
          subject: `${problemType}:${message}`,
          message: message.slice(0, 4000),
          builds: [build],
        });
      }
    };
    add(result['compatibilityProblems'] ?? result['problems'], 'problem');
    add(result['compatibilityWarnings'] ?? result['warnings'], 'warning');
  }
  return report;
}

/** Findings of several builds with the same fingerprint become one, naming all the builds. */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const merged = new Map<string, Finding>();
  for (const item of findings) {
    const key = `${item.severity}\n${problemFingerprint(item.type, item.kind, item.subject)}`;
    const earlier = merged.get(key);
    if (earlier === undefined || earlier.builds.length === 0 || item.builds.length === 0) {
      merged.set(
        key,
        earlier === undefined ? { ...item, builds: [...item.builds] } : { ...earlier, builds: [] },
      );
      continue;
    }
    for (const build of item.builds) if (!earlier.builds.includes(build)) earlier.builds.push(build);
  }
  return [...merged.values()];
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The external verifier as a check of the list; its builds join the version's results. */
export function externalVerifierChecker(options: ExternalVerifierOptions): Checker {
  return {
    type: 'plugin-verifier',
    async check({ archivePath, addTargets }) {
      const report = await runExternalVerifier(options, archivePath);
      addTargets(report.targets);
      return mergeFindings(report.findings);
    },
  };
}
