import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  externalVerifierVersion,
  parseReport,
  runExternalVerifier,
} from '../../src/verification/external-verifier';
import { verificationOptionsFromEnv } from '../../src/verification/options';

/*
 * The operator's IntelliJ Plugin Verifier is `java -jar <jar> check-plugin <archive> <ide>...`. Here a tiny
 * shell script stands in for `java`: it records its arguments and prints (or writes) a JSON report, fails,
 * or hangs, so the running, the time limit and the parsing are tested without a JDK or an IDE.
 */

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fake-verifier-'));
});
afterAll(async () => rm(folder, { recursive: true, force: true }));

async function fakeJava(name: string, body: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, `#!/bin/sh\necho "$@" > "${path}.args"\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

const REPORT = JSON.stringify({
  results: [
    {
      ideVersion: 'IU-243.28141.18',
      compatibilityProblems: [
        { problemType: 'MissingClass', message: 'Class com.example.Gone is not found' },
      ],
      compatibilityWarnings: [{ message: 'Deprecated method com.intellij.Foo.bar() is invoked' }],
    },
    {
      ideVersion: 'IC-251.28293.39',
      compatibilityProblems: [
        { problemType: 'MissingClass', message: 'Class com.example.Gone is not found' },
      ],
    },
  ],
});

function options(javaCommand: string, timeoutMs = 10_000) {
  return {
    jar: '/opt/verifier/verifier-cli-1.384-all.jar',
    ideDirectories: ['/opt/ides/IU-243', '/opt/ides/IC-251'],
    javaCommand,
    timeoutMs,
  };
}

describe('the external IntelliJ Plugin Verifier', () => {
  it('is run as java -jar with the archive and the IDEs, and its JSON report on stdout is read', async () => {
    const java = await fakeJava('prints', `echo "Verification started"\ncat <<'JSON'\n${REPORT}\nJSON`);
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    const args = await readFile(`${java}.args`, 'utf8');
    expect(args).toMatch(
      /^-jar \/opt\/verifier\/verifier-cli-1\.384-all\.jar check-plugin \/data\/plugin\.zip \/opt\/ides\/IU-243 \/opt\/ides\/IC-251 /,
    );
    expect(
      report.targets.map((target) => `${target.productBuild} ${target.productName} Java ${target.javaLevel}`),
    ).toEqual([
      'IU-243.28141.18 IntelliJ IDEA Ultimate Java 21',
      'IC-251.28293.39 IntelliJ IDEA Community Java 21',
    ]);
    expect(
      report.findings.map((finding) => `${finding.severity} ${finding.builds.join(',')} ${finding.message}`),
    ).toEqual([
      'problem IU-243.28141.18 Class com.example.Gone is not found',
      'warning IU-243.28141.18 Deprecated method com.intellij.Foo.bar() is invoked',
      'problem IC-251.28293.39 Class com.example.Gone is not found',
    ]);
  });

  it('reads the report from the reports folder when nothing is printed', async () => {
    const java = await fakeJava(
      'writes',
      [
        'while [ $# -gt 0 ]; do',
        '  if [ "$1" = "-verification-reports-dir" ]; then dir="$2"; fi',
        '  shift',
        'done',
        'mkdir -p "$dir/IU-243"',
        `cat > "$dir/IU-243/report.json" <<'JSON'\n[{"ideVersion":"IU-243.28141.18","problems":[{"type":"X","fullDescription":"Broken"}]}]\nJSON`,
      ].join('\n'),
    );
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    expect(report.findings.map((finding) => `${finding.kind} ${finding.message}`)).toEqual([
      'verifier-problem Broken',
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

  it('reports a run that fails without a report, with the end of its error output', async () => {
    const java = await fakeJava('fails', 'echo "Error: no IDE found" >&2\nexit 3');
    const report = await runExternalVerifier(options(java), '/data/plugin.zip');
    expect(report.findings[0]?.message).toBe(
      'The IntelliJ Plugin Verifier ended with exit code 3 without a report: Error: no IDE found',
    );
    const missing = await runExternalVerifier(options(join(folder, 'no-such-java')), '/data/plugin.zip');
    expect(missing.findings[0]?.kind).toBe('verifier-failed');
  });

  it('ignores what is not a report', () => {
    expect(parseReport('')).toBeUndefined();
    expect(parseReport('log only')).toBeUndefined();
    expect(parseReport('{"unrelated": true}')).toBeUndefined();
    expect(parseReport('[{"ideVersion": "not a build"}]')).toEqual({ findings: [], targets: [] });
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
