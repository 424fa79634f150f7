import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  externalVerifierVersion,
  mergeFindings,
  runExternalVerifier,
} from '../../src/verification/external-verifier';
import { verificationOptionsFromEnv } from '../../src/verification/options';

/*
 * The operator's IntelliJ Plugin Verifier is `java -jar <jar> check-plugin <options> <plugin> <ide>...`. Here
 * a shell script stands in for `java`: it records its arguments and writes what the real verifier writes,
 * fails, or hangs, so the command line, the time limit and the reading of the reports are tested without a
 * JDK or an IDE. The layout and the text are those of the verifier's source (JetBrains/intellij-plugin-verifier):
 * - intellij-plugin-verifier/verifier-intellij/src/main/java/com/jetbrains/pluginverifier/reporting/
 *   DirectoryBasedPluginVerificationReportage.kt and reporting/common/FileReporter.kt: the folders
 *   `<reports>/<IDE>/plugins/<id>/<version>/` and their files, one full description per line;
 * - .../pluginverifier/PluginVerificationResult.kt: the verdicts ("1 compatibility problem. 1 usage of
 *   deprecated API", "Compatible");
 * - intellij-plugin-verifier/verifier-cli/src/main/java/com/jetbrains/pluginverifier/output/markdown/
 *   MarkdownResultPrinter.kt: `<reports>/<IDE>/report.markdown` (note the "): " headings);
 * - .../output/stream/WriterResultPrinter.kt and output/CliMessages.kt: the plain console report;
 * - verifier-core .../results/problems/MethodNotFoundProblem.kt, PackageNotFoundDescriptionBuilder.kt,
 *   .../usages/deprecated/DeprecatedMethodUsage.kt and intellij-plugin-structure's PropertyNotSpecified
 *   (base/problems): the descriptions.
 */

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fake-verifier-'));
});
afterAll(async () => rm(folder, { recursive: true, force: true }));

/** A stand-in `java` whose arguments are kept one per line and whose `$dir` is `-verification-reports-dir`. */
async function fakeJava(name: string, body: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(
    path,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" > "${path}.args"`,
      'dir=""',
      'previous=""',
      'for argument in "$@"; do',
      '  if [ "$previous" = "-verification-reports-dir" ]; then dir="$argument"; fi',
      '  previous="$argument"',
      'done',
      'echo "Starting the IntelliJ Plugin Verifier 1.384"',
      body,
      '',
    ].join('\n'),
  );
  await chmod(path, 0o755);
  return path;
}

function options(javaCommand: string, timeoutMs = 10_000) {
  return {
    jar: '/opt/verifier/verifier-cli-1.384-all.jar',
    ideDirectories: ['/opt/ides/IU-243', '/opt/ides/IC-251'],
    javaCommand,
    timeoutMs,
  };
}

const UNRESOLVED =
  'Method com.example.HelloAction.actionPerformed(com.intellij.openapi.actionSystem.AnActionEvent e) : void contains an *invokevirtual* instruction referencing an unresolved method com.intellij.openapi.project.Project.getBaseDir() : com.intellij.openapi.vfs.VirtualFile. This can lead to **NoSuchMethodError** exception at runtime.';
const DEPRECATED =
  'Deprecated method com.intellij.openapi.actionSystem.AnAction.update(com.intellij.openapi.actionSystem.AnActionEvent e) : void is invoked in com.example.HelloAction.update(AnActionEvent) : void';

/** Writes the folder of one IDE as the verifier does, with a `report.markdown` when `markdown` is set. */
function ideReport(ide: string, verdict: string, markdown: boolean, files: Record<string, string>): string {
  const plugin = `"$dir/${ide}/plugins/com.example.hello/1.0.0"`;
  const lines = [
    `mkdir -p ${plugin}`,
    `printf '%s\\n' '${verdict}' > ${plugin}/verification-verdict.txt`,
    `printf '%s\\n' 'com.example.hello:1.0.0' > ${plugin}/dependencies.txt`,
    `echo "Plugin com.example.hello:1.0.0 against ${ide}: ${verdict}"`,
  ];
  for (const [file, text] of Object.entries(files)) {
    lines.push(`cat > ${plugin}/${file} <<'TEXT'\n${text}\nTEXT`);
  }
  if (markdown) {
    const sections = [`# Plugin com.example.hello:1.0.0 against ${ide}`, '', verdict, ''];
    if (files['compatibility-problems.txt'] !== undefined) {
      sections.push(
        '## Compatibility problems (1): ',
        '',
        '### Invocation of unresolved method com.intellij.openapi.project.Project.getBaseDir() : VirtualFile',
        '',
        `* ${UNRESOLVED}`,
        '',
      );
    }
    if (files['deprecated-usages.txt'] !== undefined) {
      sections.push(
        '## Deprecated API usages (1): ',
        '',
        '### Deprecated method com.intellij.openapi.actionSystem.AnAction.update(AnActionEvent) invocation',
        '',
        `* ${DEPRECATED}`,
        '',
      );
    }
    sections.push(
      '## Dynamic Plugin Status',
      '',
      'Plugin can probably be enabled or disabled without IDE restart',
      '',
    );
    lines.push(`cat > "$dir/${ide}/report.markdown" <<'TEXT'\n${sections.join('\n')}\nTEXT`);
  }
  return lines.join('\n');
}

describe('the external IntelliJ Plugin Verifier', () => {
  it('is run with the real check-plugin command line, and its findings are read from the reports per IDE', async () => {
    const java = await fakeJava(
      'verifies',
      [
        'echo "Verification reports directory: $dir"',
        ideReport('IU-243.28141.18', '1 compatibility problem. 1 usage of deprecated API', true, {
          'compatibility-problems.txt': UNRESOLVED,
          'deprecated-usages.txt': DEPRECATED,
        }),
        ideReport('IC-251.28293.39', '1 compatibility problem', true, {
          'compatibility-problems.txt': UNRESOLVED,
        }),
      ].join('\n'),
    );
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');

    const args = (await readFile(`${java}.args`, 'utf8')).trimEnd().split('\n');
    expect(args).toEqual([
      '-jar',
      '/opt/verifier/verifier-cli-1.384-all.jar',
      'check-plugin',
      '-verification-reports-dir',
      expect.stringMatching(/plugin-verifier-.*\/reports$/),
      '-verification-reports-formats',
      'plain,markdown',
      '-offline',
      '/data/plugin.zip',
      '/opt/ides/IU-243',
      '/opt/ides/IC-251',
    ]);
    expect(
      report.targets.map(
        (target) => `${target.productBuild} ${target.productName} ${target.release} Java ${target.javaLevel}`,
      ),
    ).toEqual([
      'IU-243.28141.18 IntelliJ IDEA Ultimate 2024.3 Java 21',
      'IC-251.28293.39 IntelliJ IDEA Community 2025.1 Java 21',
    ]);
    // The same unresolved method on both IDEs is one problem naming both builds; its full description stays.
    expect(
      mergeFindings(report.findings).map((finding) => [
        finding.severity,
        finding.builds.join(','),
        finding.subject,
        finding.message,
      ]),
    ).toEqual([
      [
        'problem',
        'IU-243.28141.18,IC-251.28293.39',
        'Compatibility problems: Invocation of unresolved method com.intellij.openapi.project.Project.getBaseDir() : VirtualFile',
        `Invocation of unresolved method com.intellij.openapi.project.Project.getBaseDir() : VirtualFile\n${UNRESOLVED}`,
      ],
      [
        'warning',
        'IU-243.28141.18',
        'Deprecated API usages: Deprecated method com.intellij.openapi.actionSystem.AnAction.update(AnActionEvent) invocation',
        `Deprecated method com.intellij.openapi.actionSystem.AnAction.update(AnActionEvent) invocation\n${DEPRECATED}`,
      ],
    ]);
    // The run's folder is removed afterwards.
    await expect(readFile(join(args[4]!, 'IU-243.28141.18', 'report.markdown'))).rejects.toThrow();
  });

  it('reads the category files of a verifier that writes no report.markdown', async () => {
    const missingPackage = [
      "Package 'org.apache.commons.lang' is not found along with its class org.apache.commons.lang.StringUtils.",
      "Probably the package 'org.apache.commons.lang' belongs to a library or dependency that is not resolved by the checker.",
      "The following classes of 'org.apache.commons.lang' are not resolved:",
      '  Class org.apache.commons.lang.StringUtils is referenced in',
      '    com.example.HelloAction.update(AnActionEvent) : void',
    ].join('\n');
    const java = await fakeJava(
      'writes-files',
      [
        ideReport('IU-243.28141.18', '2 compatibility problems', false, {
          'compatibility-problems.txt': `${UNRESOLVED}\n${missingPackage}`,
        }),
        ideReport('IU-233.15619.7', 'Compatible', false, {}),
      ].join('\n'),
    );
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    expect(report.targets.map((target) => target.productBuild)).toEqual([
      'IU-233.15619.7',
      'IU-243.28141.18',
    ]);
    // One finding per line of the file; indented lines stay with the entry above them.
    expect(report.findings.map((finding) => `${finding.severity} ${finding.message}`)).toEqual([
      `problem ${UNRESOLVED}`,
      "problem Package 'org.apache.commons.lang' is not found along with its class org.apache.commons.lang.StringUtils.",
      "problem Probably the package 'org.apache.commons.lang' belongs to a library or dependency that is not resolved by the checker.",
      [
        "problem The following classes of 'org.apache.commons.lang' are not resolved:",
        '  Class org.apache.commons.lang.StringUtils is referenced in',
        '    com.example.HelloAction.update(AnActionEvent) : void',
      ].join('\n'),
    ]);
  });

  it('reports a plugin file the verifier cannot read as a problem of every build', async () => {
    const java = await fakeJava(
      'invalid',
      [
        'mkdir -p "$dir"',
        "echo 'The following files specified for the verification are not valid plugins:'",
        "echo '    /data/plugin.zip'",
        "echo '        Plugin problems:'",
        `echo "            Invalid plugin descriptor 'plugin.xml': The property <id> is not specified."`,
        "echo '                Set the <id> element in plugin.xml.'",
      ].join('\n'),
    );
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    expect(report.targets).toEqual([]);
    expect(report.findings.map((finding) => [finding.severity, finding.builds, finding.message])).toEqual([
      ['problem', [], "Invalid plugin descriptor 'plugin.xml': The property <id> is not specified."],
    ]);
  });

  it('reports a plugin the verifier found invalid against an IDE as a problem of that build', async () => {
    const error = "Invalid plugin descriptor 'plugin.xml': The property <version> is not specified.";
    const java = await fakeJava(
      'invalid-on-ide',
      ideReport('IU-243.28141.18', `Plugin is invalid: ${error}`, true, { 'invalid-plugin.txt': error }),
    );
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    expect(report.targets.map((target) => target.productBuild)).toEqual(['IU-243.28141.18']);
    expect(report.findings.map((finding) => [finding.severity, finding.builds, finding.message])).toEqual([
      ['problem', ['IU-243.28141.18'], error],
    ]);
  });

  it('is stopped at the time limit, with a warning instead of results', async () => {
    const java = await fakeJava('hangs', 'sleep 30');
    const started = Date.now();
    const report = await runExternalVerifier(options(java, 400), '/data/plugin.zip');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.targets).toEqual([]);
    expect(report.findings).toEqual([
      expect.objectContaining({ kind: 'verifier-failed', severity: 'warning', type: 'plugin-verifier' }),
    ]);
    expect(report.findings[0]?.message).toContain('did not finish within 0 seconds');
  });

  it('reports a run that fails, or ends without a verdict, with the end of its error output', async () => {
    const crashes = await fakeJava(
      'crashes',
      [
        `echo 'Exception in thread "main" java.lang.IllegalArgumentException: IDE must reside in a directory: /opt/ides/IU-243' >&2`,
        'exit 1',
      ].join('\n'),
    );
    const crashed = await runExternalVerifier(options(crashes), '/data/plugin.zip');
    expect(crashed.findings.map((finding) => `${finding.kind} ${finding.message}`)).toEqual([
      'verifier-failed The IntelliJ Plugin Verifier ended with exit code 1 without a report: Exception in thread "main" java.lang.IllegalArgumentException: IDE must reside in a directory: /opt/ides/IU-243',
    ]);

    const silent = await fakeJava('silent', 'mkdir -p "$dir"');
    const ended = await runExternalVerifier(options(silent), '/data/plugin.zip');
    expect(ended.findings[0]?.message).toBe(
      'The IntelliJ Plugin Verifier ended with exit code 0 without a report: Starting the IntelliJ Plugin Verifier 1.384',
    );

    const missing = await runExternalVerifier(options(join(folder, 'no-such-java')), '/data/plugin.zip');
    expect(missing.findings[0]?.kind).toBe('verifier-failed');
    expect(missing.findings[0]?.message).toMatch(
      /^The IntelliJ Plugin Verifier could not be started: .*ENOENT/,
    );
  });

  it('is configured by path, with its version taken from the jar name', () => {
    expect(externalVerifierVersion('/opt/verifier-cli-1.384-all.jar')).toBe('1.384');
    expect(externalVerifierVersion('/opt/verifier.jar')).toBeNull();
    const configured = verificationOptionsFromEnv({
      PLUGIN_VERIFIER_JAR: '/opt/verifier-cli-1.384-all.jar',
      PLUGIN_VERIFIER_IDE_DIRS: '/opt/ides/a:/opt/ides/b',
      PLUGIN_VERIFIER_TIMEOUT_SECONDS: '120',
    });
    expect(configured.external).toEqual({
      jar: '/opt/verifier-cli-1.384-all.jar',
      ideDirectories: ['/opt/ides/a', '/opt/ides/b'],
      javaCommand: 'java',
      timeoutMs: 120_000,
    });
    expect(verificationOptionsFromEnv({}).external).toBeUndefined();
    expect(() => verificationOptionsFromEnv({ PLUGIN_VERIFIER_JAR: '/opt/v.jar' })).toThrow(
      'PLUGIN_VERIFIER_IDE_DIRS',
    );
  });
});
