import type { ArchiveLimits } from '../../archive/limits';
import { walkArchive } from './archive-walk';
import { clamavEngineName, scanWithClamav } from './clamav';
import { sortFindings, type ScanFinding } from './findings';
import { archiveMalwareFinding, entryMalwareFinding, type MalwareHashes } from './malware';
import type { ClamavOptions } from './options';
import { placementFindings } from './placement';
import { SecretScanner } from './secrets';

/** The checks that need nothing installed; ClamAV adds `clamav <version>` when it ran. */
export const BUILT_IN_ENGINE = 'built-in';

/** At most this many findings are kept per scan (the most severe): one look at the version is enough. */
export const MAX_FINDINGS = 100;

export interface ArchiveScan {
  sha256: string;
  entries: number;
  engines: string[];
  findings: ScanFinding[];
  /** ClamAV was configured and could not scan; the caller decides between a retry and a finding. */
  clamavError: string | undefined;
}

/**
 * The built-in checks over an archive on disk, and ClamAV when configured: known-malware hashes of the
 * archive and of every entry (nested archives too), secrets in text and class files, native binaries and
 * scripts out of place. No database access: the look-alike rules are the worker's.
 */
export async function scanArchive(input: {
  archivePath: string;
  kind: 'jar' | 'zip';
  tempDir: string;
  malwareHashes: MalwareHashes;
  maxContentBytes: number;
  clamav?: ClamavOptions | undefined;
  archiveLimits?: Partial<ArchiveLimits> | undefined;
}): Promise<ArchiveScan> {
  const findings: ScanFinding[] = [];
  const secrets = new SecretScanner((found) => findings.push(...found));
  const walked = await walkArchive(input.archivePath, {
    kind: input.kind,
    tempDir: input.tempDir,
    maxContentBytes: input.maxContentBytes,
    ...(input.archiveLimits ? { limits: input.archiveLimits } : {}),
    visit: async (entry) => {
      const malware = entryMalwareFinding(entry, input.malwareHashes);
      if (malware) findings.push(malware);
      findings.push(...placementFindings(entry));
      await secrets.add(entry);
    },
  });
  await secrets.finish();
  const whole = archiveMalwareFinding(walked.sha256, input.malwareHashes);
  if (whole) findings.push(whole);
  findings.push(...walked.problems);
  const engines = [BUILT_IN_ENGINE];
  let clamavError: string | undefined;
  if (input.clamav) {
    const clamav = await scanWithClamav(input.clamav, input.archivePath);
    findings.push(...clamav.findings);
    clamavError = clamav.error;
    if (clamav.error === undefined) engines.push(await clamavEngineName(input.clamav));
  }
  return {
    sha256: walked.sha256,
    entries: walked.entries,
    engines,
    findings: sortFindings(findings).slice(0, MAX_FINDINGS),
    clamavError,
  };
}
