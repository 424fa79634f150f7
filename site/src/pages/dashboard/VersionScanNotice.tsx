import type { ScanFinding, VersionScanStatus } from '@marketplace/api-client';

/** Words for the kinds of findings the scanner writes (server src/trust/scanning); others show as written. */
const FINDING_KINDS: Readonly<Record<string, string>> = {
  'known-malware': 'Known malware',
  clamav: 'Malware (ClamAV)',
  'clamav-failed': 'Malware check failed',
  secret: 'Secret',
  'native-binary': 'Native binary',
  script: 'Script',
  'look-alike': 'Look-alike',
  unreadable: 'Unreadable archive',
};

function Findings({ findings }: { findings: readonly ScanFinding[] }) {
  return (
    <ul>
      {findings.map((finding, index) => (
        <li key={index}>
          <strong>{FINDING_KINDS[finding.kind] ?? finding.kind}</strong> ({finding.severity}) in{' '}
          <code>{finding.path}</code>: {finding.message}
        </li>
      ))}
    </ul>
  );
}

function problems(count: number): string {
  return count === 1 ? '1 problem' : `${count} problems`;
}

/**
 * What scanning says of one version on its manage page, when it is more than a plain pass: the developer
 * whose version is held learns why it is not offered and what to do. Nothing for passed and unscanned
 * versions (they are offered as far as scanning goes).
 */
export function VersionScanNotice({ version, status }: { version: string; status: VersionScanStatus }) {
  const findings = status.scan?.findings ?? [];
  const reason = status.scan?.decision?.reason;
  const label = `Scan of version ${version}`;
  switch (status.state) {
    case 'pending':
      return (
        <div className="site-callout site-callout--warning site-version-scan" role="note" aria-label={label}>
          <h3>Scan pending</h3>
          {status.job?.state === 'failed' ? (
            <p>
              The scan could not finish after {status.job.attempts} attempts. The version stays held until an
              administrator has it scanned again.
            </p>
          ) : (
            <p>
              This version is being scanned for malware, secrets and misplaced binaries. It is offered once
              the scan passes, usually within moments.
            </p>
          )}
        </div>
      );
    case 'quarantined':
      return (
        <div className="site-callout site-callout--error site-version-scan" role="note" aria-label={label}>
          <h3>Held: the scan found {problems(findings.length)}</h3>
          <Findings findings={findings} />
          <p>
            Nobody but this item&apos;s developers and the administrators can see or download it. An
            administrator will release it or reject it; to have a version offered now, fix these and upload a
            new version.
          </p>
        </div>
      );
    case 'rejected':
      return (
        <div className="site-callout site-callout--error site-version-scan" role="note" aria-label={label}>
          <h3>Rejected after scan</h3>
          <p>
            An administrator rejected this version after its scan{reason ? ` (${reason})` : ''}: it will not
            be offered. Fix what was found and upload a new version.
          </p>
          {findings.length ? <Findings findings={findings} /> : null}
        </div>
      );
    case 'released':
      return (
        <p className="site-muted site-version-scan" role="note" aria-label={label}>
          Released after review: its scan found {problems(findings.length)}, and an administrator let it be
          offered{reason ? ` (${reason})` : ''}.
        </p>
      );
    default:
      return null;
  }
}
