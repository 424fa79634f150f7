/**
 * What a scan reports. Each finding names the entry it is about (`lib/helper.jar!/native/x.so` for an entry
 * of a nested archive; `(archive)` for the archive as a whole), says in one sentence what was found, and
 * carries a severity; the quarantine threshold (SCAN_QUARANTINE_SEVERITY) decides which severities hold a
 * version back.
 */

export const SCAN_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ScanSeverity = (typeof SCAN_SEVERITIES)[number];

export const SCAN_FINDING_KINDS = [
  /** The archive or an entry has the SHA-256 of known malware (the operator's list, EICAR). */
  'known-malware',
  /** ClamAV reported a signature. */
  'clamav',
  /** ClamAV could not scan the archive on the last attempt. */
  'clamav-failed',
  /** A private key, access key or token committed by mistake. */
  'secret',
  /** A native executable or library where a plugin does not keep them, or disguised as another kind of file. */
  'native-binary',
  /** A shell, batch or PowerShell script where a plugin does not keep them. */
  'script',
  /** The item's id or name looks like another vendor's item (trust/checks.ts). */
  'look-alike',
  /** Part of the archive could not be read, so it was not scanned. */
  'unreadable',
] as const;
export type ScanFindingKind = (typeof SCAN_FINDING_KINDS)[number];

export interface ScanFinding {
  kind: ScanFindingKind;
  severity: ScanSeverity;
  /** The entry, `outer.jar!/inner/path` inside nested archives; `(archive)` for the whole archive. */
  path: string;
  /** One sentence for the administrator (never the secret itself). */
  message: string;
}

/** The path findings about the archive as a whole carry. */
export const WHOLE_ARCHIVE = '(archive)';

export function severityRank(severity: ScanSeverity): number {
  return SCAN_SEVERITIES.indexOf(severity);
}

/** Whether the findings hold the version back at this threshold. */
export function warrantsQuarantine(findings: readonly ScanFinding[], threshold: ScanSeverity): boolean {
  return findings.some((finding) => severityRank(finding.severity) >= severityRank(threshold));
}

/** Most severe first, then by path, so the administrator reads what matters first. */
export function sortFindings(findings: readonly ScanFinding[]): ScanFinding[] {
  return [...findings].sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      a.path.localeCompare(b.path) ||
      a.kind.localeCompare(b.kind),
  );
}
