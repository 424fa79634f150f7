import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  compareBuildNumbers,
  javaLevelOfBranch,
  parseBuildNumber,
  platformRelease,
  problemFingerprint,
  productByCode,
  productFullName,
  type VerificationTarget,
} from '@marketplace/core';
import { runWithLimit } from '../process/run-with-limit';
import type { Checker, Finding } from './checkers';

/** How the operator's IntelliJ Plugin Verifier is run: `java -jar <jar> check-plugin <options> <archive> <ide>...`. */
export interface ExternalVerifierOptions {
  /** The verifier's CLI jar (`verifier-cli-<version>-all.jar`). */
  jar: string;
  /** The IDEs to check against: installation folders, or patterns such as `[latest-release-IU]` (downloaded). */
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

/**
 * The command line, as JetBrains' own Gradle task builds it (intellij-platform-gradle-plugin,
 * `VerifyPluginTask.kt`): the command, then the options, then the plugin and the IDEs as free arguments
 * (`CheckPluginParamsBuilder.kt`: the first free argument is the plugin, every further one an IDE, a directory
 * or a `[latest-release-IU]`-style pattern). `-offline` keeps the verifier from asking JetBrains Marketplace
 * for dependencies and from fetching its list of documented API changes; `plain` keeps the console report
 * (the only place an unreadable plugin file is reported) and `markdown` adds `report.markdown` per IDE, whose
 * sections group the problems by their short description. HTML, the default beside `plain`, is not needed.
 */
export function externalVerifierArguments(
  options: ExternalVerifierOptions,
  archivePath: string,
  reportsDirectory: string,
): string[] {
  return [
    '-jar',
    options.jar,
    'check-plugin',
    '-verification-reports-dir',
    reportsDirectory,
    '-verification-reports-formats',
    'plain,markdown',
    '-offline',
    archivePath,
    ...options.ideDirectories,
  ];
}

/**
 * Runs the verifier as a child process (its own process group, killed whole when the time is up) and reads
 * the reports it wrote. The verifier ends with 0 whatever it found and with 1 when it failed (an uncaught
 * exception, e.g. an IDE path that is no directory), so findings come from the reports, never the exit code.
 */
export async function runExternalVerifier(
  options: ExternalVerifierOptions,
  archivePath: string,
): Promise<ExternalReport> {
  const workDirectory = await mkdtemp(join(tmpdir(), 'plugin-verifier-'));
  // A folder of its own: the verifier deletes a reports folder that is not empty before it starts.
  const reportsDirectory = join(workDirectory, 'reports');
  try {
    const outcome = await runWithLimit(
      options.javaCommand,
      externalVerifierArguments(options, archivePath, reportsDirectory),
      { timeoutMs: options.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES },
    );
    if (outcome.timedOut) {
      return failed(
        `The IntelliJ Plugin Verifier did not finish within ${Math.round(options.timeoutMs / 1000)} seconds and was stopped; its checks are missing from this result.`,
      );
    }
    const detail = (outcome.stderr.trim() || outcome.stdout.trim()).slice(-500);
    if (outcome.code === null) {
      return failed(`The IntelliJ Plugin Verifier could not be started${detail ? `: ${detail}` : '.'}`);
    }
    const report = outcome.code === 0 ? await readReportsDirectory(reportsDirectory) : undefined;
    if (report !== undefined) return report;
    const invalid = outcome.code === 0 ? invalidPluginFiles(outcome.stdout) : undefined;
    if (invalid !== undefined) return invalid;
    return failed(
      `The IntelliJ Plugin Verifier ended with exit code ${String(outcome.code)} without a report${detail ? `: ${detail}` : '.'}`,
    );
  } finally {
    await rm(workDirectory, { recursive: true, force: true }).catch(() => undefined);
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

/*
 * What the verifier writes (JetBrains/intellij-plugin-verifier, read at its repository):
 * - `verifier-intellij/.../reporting/DirectoryBasedPluginVerificationReportage.kt`: for every IDE and plugin
 *   `<reports>/<IDE version>/plugins/<plugin id>/<plugin version>/` with `verification-verdict.txt` (always,
 *   one line, `PluginVerificationResult.verificationVerdict`), `invalid-plugin.txt` for an invalid plugin, and
 *   one file per category that has entries (`compatibility-problems.txt`, `compatibility-warnings.txt`,
 *   `deprecated-usages.txt`, ...), each entry's full description written as it is (`FileReporter.kt`), so an
 *   entry of several lines (a missing package lists its classes) is not told apart from the next one.
 * - `verifier-cli/.../output/OutputOptions.kt`: the IDE folder is `IdeVersion.asString()` (`IU-243.28141.18`)
 *   with characters outside `[a-zA-Z0-9.#\-() ]` replaced by `_`.
 * - `verifier-cli/.../output/markdown/MarkdownResultPrinter.kt`: `<reports>/<IDE version>/report.markdown`,
 *   `# Plugin <plugin> against <IDE>`, the verdict, then per category `## <Category> (<n>): ` with
 *   `### <short description>` and its full descriptions as `* ` lines (structure warnings and missing
 *   dependencies have no short description: one `* ` line each).
 * There is no JSON report: `OutputFormat.kt` knows plain, html and markdown.
 */

/** The category of the verifier whose entries make a version fail; every other category is a warning. */
const PROBLEM_CATEGORY = 'Compatibility problems';

/**
 * The category files, for verifiers that write no `report.markdown` (older than the markdown format).
 * `internal-api-kt-usages.txt` is left out: it repeats part of `internal-api-usages.txt`.
 */
const CATEGORY_FILES: readonly (readonly [file: string, category: string])[] = [
  ['compatibility-problems.txt', PROBLEM_CATEGORY],
  ['compatibility-warnings.txt', 'Compatibility warnings'],
  ['plugin-structure-warnings.txt', 'Plugin structure warnings'],
  ['deprecated-usages.txt', 'Deprecated API usages'],
  ['experimental-api-usages.txt', 'Experimental API usages'],
  ['internal-api-usages.txt', 'Internal API usages'],
  ['override-only-usages.txt', 'Override-only API usages'],
  ['non-extendable-api-usages.txt', 'Non-extendable API usages'],
];

/**
 * A finding of one category of the verifier on one build: its subject is the category and what the entry
 * names (a short description, or the entry's first line), its message that and the lines that detail it.
 */
function categoryFinding(
  category: string,
  about: string,
  details: readonly string[],
  build: string,
): Finding {
  const problem = category === PROBLEM_CATEGORY;
  const message = [about, ...details].join('\n');
  return {
    type: 'plugin-verifier',
    kind: problem ? 'verifier-problem' : 'verifier-warning',
    severity: problem ? 'problem' : 'warning',
    subject: `${category}: ${about}`,
    message: message.slice(0, 4000),
    builds: [build],
  };
}

/**
 * Reads a reports folder the verifier wrote: one target per IDE folder holding a verdict, the findings from
 * the IDE's `report.markdown`, or from the category files where there is none, and an invalid plugin from
 * `invalid-plugin.txt`. Undefined when no verdict was written at all (the run did not get to verify).
 */
export async function readReportsDirectory(directory: string): Promise<ExternalReport | undefined> {
  const ides = (await readdir(directory, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory() && parseBuildNumber(entry.name) !== undefined)
    .map((entry) => entry.name)
    .sort(compareBuildNumbers);
  const report: ExternalReport = { findings: [], targets: [] };
  let verdicts = 0;
  for (const build of ides) {
    const ideDirectory = join(directory, build);
    const pluginDirectories: string[] = [];
    for (const id of await subdirectories(join(ideDirectory, 'plugins'))) {
      for (const version of await subdirectories(join(ideDirectory, 'plugins', id))) {
        pluginDirectories.push(join(ideDirectory, 'plugins', id, version));
      }
    }
    const verdictsOfIde: { directory: string; verdict: string }[] = [];
    for (const pluginDirectory of pluginDirectories) {
      const verdict = await readText(join(pluginDirectory, 'verification-verdict.txt'));
      if (verdict !== undefined) verdictsOfIde.push({ directory: pluginDirectory, verdict: verdict.trim() });
    }
    if (verdictsOfIde.length === 0) continue;
    verdicts += verdictsOfIde.length;
    report.targets.push(targetOf(build));
    const markdown = await readText(join(ideDirectory, 'report.markdown'));
    if (markdown !== undefined) report.findings.push(...parseMarkdownReport(markdown, build));
    for (const { directory: pluginDirectory, verdict } of verdictsOfIde) {
      if (markdown === undefined)
        report.findings.push(...(await categoryFileFindings(pluginDirectory, build)));
      if (verdict.startsWith('Plugin is invalid')) {
        const errors = entriesOf((await readText(join(pluginDirectory, 'invalid-plugin.txt'))) ?? '');
        for (const error of errors.length > 0 ? errors : [verdict]) {
          report.findings.push({
            type: 'plugin-verifier',
            kind: 'verifier-problem',
            severity: 'problem',
            subject: `Invalid plugin: ${error}`,
            message: error.slice(0, 4000),
            builds: [build],
          });
        }
      }
    }
  }
  return verdicts === 0 ? undefined : report;
}

function targetOf(build: string): VerificationTarget {
  const parsed = parseBuildNumber(build);
  const branch = parsed?.components[0] ?? 0;
  const product = parsed?.productCode === undefined ? undefined : productByCode(parsed.productCode);
  return {
    productBuild: build,
    productName: product === undefined ? 'IDE' : productFullName(product),
    branch,
    release: platformRelease(branch)?.release ?? '',
    javaLevel: javaLevelOfBranch(branch),
  };
}

/**
 * The findings of a `report.markdown`: one per short description of a category (its full descriptions in
 * the message), or one per line where the category has none. Sections without a count (the dynamic plugin
 * status, which the built-in dynamic-loading check covers) are skipped.
 */
export function parseMarkdownReport(text: string, build: string): Finding[] {
  const findings: Finding[] = [];
  let category: string | undefined;
  let group: { about: string; lines: string[] } | undefined;
  const flush = () => {
    if (category !== undefined && group !== undefined) {
      findings.push(categoryFinding(category, group.about, group.lines, build));
    }
    group = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    const section = /^## (.+?) \((\d+)\):\s*$/.exec(line);
    if (section !== null || /^#{1,2} /.test(line)) {
      flush();
      category = section?.[1];
      continue;
    }
    if (category === undefined) continue;
    const heading = /^### (.+)$/.exec(line);
    if (heading !== null) {
      flush();
      group = { about: heading[1]!.trim(), lines: [] };
      continue;
    }
    const item = /^\* (.*)$/.exec(line);
    if (item === null) continue;
    const entry = item[1]!.trim();
    if (group !== undefined) group.lines.push(entry);
    else if (entry !== '') findings.push(categoryFinding(category, entry, [], build));
  }
  flush();
  return findings;
}

/**
 * The findings of the category files of one plugin folder: one per entry. An indented line belongs to the
 * entry before it (the class lists of a missing package); other lines of one entry cannot be told apart.
 */
async function categoryFileFindings(pluginDirectory: string, build: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [file, category] of CATEGORY_FILES) {
    const text = await readText(join(pluginDirectory, file));
    if (text === undefined) continue;
    for (const entry of entriesOf(text)) {
      const [first = entry, ...rest] = entry.split('\n');
      findings.push(categoryFinding(category, first, rest, build));
    }
  }
  return findings;
}

function entriesOf(text: string): string[] {
  const entries: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line) && entries.length > 0) entries[entries.length - 1] += `\n${line.trimEnd()}`;
    else entries.push(line.trim());
  }
  return entries;
}

/** The heading `WriterResultPrinter.printInvalidPluginFiles` prints above plugin files it could not read. */
const INVALID_PLUGIN_FILES_HEADING =
  'The following files specified for the verification are not valid plugins:';

/**
 * A plugin file the verifier could not read at all gets no report folder; the plain console report lists it
 * (`WriterResultPrinter.kt`: the file indented by 4, `Plugin problems:` by 8, each error by 12, its hint by
 * 16). Its errors become problems that concern every build; undefined when the heading is not there.
 */
export function invalidPluginFiles(stdout: string): ExternalReport | undefined {
  const lines = stdout.split(/\r?\n/);
  const start = lines.indexOf(INVALID_PLUGIN_FILES_HEADING);
  if (start < 0) return undefined;
  const errors: string[] = [];
  let inErrors = false;
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('    ')) break;
    if (/^ {8}\S/.test(line)) inErrors = line.trim() === 'Plugin problems:';
    else if (inErrors && /^ {12}\S/.test(line)) errors.push(line.trim());
  }
  return {
    findings: (errors.length > 0 ? errors : ['The plugin file is not a valid plugin.']).map((error) => ({
      type: 'plugin-verifier' as const,
      kind: 'verifier-problem' as const,
      severity: 'problem' as const,
      subject: `Invalid plugin: ${error}`,
      message: error.slice(0, 4000),
      builds: [],
    })),
    targets: [],
  };
}

async function subdirectories(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
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
