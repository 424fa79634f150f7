import { SCAN_SEVERITIES, type ScanSeverity } from './findings';

export interface ClamavOptions {
  /** clamscan or clamdscan, as a path or a command on PATH. */
  command: string;
  /** Extra arguments before the archive (e.g. `--database=/srv/clamav` or `--fdpass`). */
  args: string[];
  /** The whole run is stopped (its process group killed) after this. */
  timeoutMs: number;
}

export interface ScanOptions {
  /** How often the scheduler's `trust-scan` job works the queue, in ms; 0: only when nudged or run now. */
  intervalMs: number;
  /** How long a worker owns a job it claimed; a job whose worker died is taken up again after this. */
  leaseMs: number;
  /** Runs of a job before it is given up as failed. */
  maxAttempts: number;
  /** Findings of this severity or above quarantine the version; lower ones only flag it. */
  quarantineSeverity: ScanSeverity;
  /** The operator's list of known-malware SHA-256 hashes (one a line), added to the built-in EICAR hash. */
  malwareHashesFile: string | undefined;
  /** ClamAV, when the operator installed it. */
  clamav: ClamavOptions | undefined;
  /**
   * How long an approval waits for the scans of the versions it approves when another node is running them
   * (scans on this node, or due ones, it runs itself). Past it the approval goes ahead and each version is
   * offered once its scan passes.
   */
  approvalWaitMs: number;
  /** The first bytes of each entry that the content checks read (secrets, scripts). */
  maxContentBytes: number;
}

export class ScanConfigError extends Error {
  override name = 'ScanConfigError';
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new ScanConfigError(`${name} must be a number of 0 or more, got "${text}".`);
  }
  return value;
}

/**
 * From the environment: `SCAN_INTERVAL_SECONDS` (10; 0 turns the schedule off), `SCAN_LEASE_SECONDS` (600,
 * at least the ClamAV time limit plus a minute), `SCAN_MAX_ATTEMPTS` (3), `SCAN_QUARANTINE_SEVERITY` (high),
 * `SCAN_MALWARE_HASHES_FILE`, `SCAN_CLAMAV` (path to clamscan or clamdscan), `SCAN_CLAMAV_ARGS` (extra
 * arguments, separated by spaces), `SCAN_CLAMAV_TIMEOUT_SECONDS` (300), `SCAN_APPROVAL_WAIT_SECONDS` (30)
 * and `SCAN_MAX_CONTENT_MB` (4).
 */
export function scanOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ScanOptions {
  const severityText = env.SCAN_QUARANTINE_SEVERITY?.trim().toLowerCase() || 'high';
  if (!(SCAN_SEVERITIES as readonly string[]).includes(severityText)) {
    throw new ScanConfigError(
      `SCAN_QUARANTINE_SEVERITY must be one of ${SCAN_SEVERITIES.join(', ')}, got "${severityText}".`,
    );
  }
  const command = env.SCAN_CLAMAV?.trim() ?? '';
  const timeoutMs = Math.max(1, number(env, 'SCAN_CLAMAV_TIMEOUT_SECONDS', 300)) * 1000;
  const hashesFile = env.SCAN_MALWARE_HASHES_FILE?.trim() ?? '';
  return {
    intervalMs: number(env, 'SCAN_INTERVAL_SECONDS', 10) * 1000,
    leaseMs: Math.max(
      number(env, 'SCAN_LEASE_SECONDS', 600) * 1000,
      (command === '' ? 0 : timeoutMs) + 60_000,
    ),
    maxAttempts: Math.max(1, Math.floor(number(env, 'SCAN_MAX_ATTEMPTS', 3))),
    quarantineSeverity: severityText as ScanSeverity,
    malwareHashesFile: hashesFile === '' ? undefined : hashesFile,
    clamav:
      command === ''
        ? undefined
        : {
            command,
            args: (env.SCAN_CLAMAV_ARGS ?? '').split(/\s+/).filter((arg) => arg !== ''),
            timeoutMs,
          },
    approvalWaitMs: number(env, 'SCAN_APPROVAL_WAIT_SECONDS', 30) * 1000,
    maxContentBytes: Math.max(1, number(env, 'SCAN_MAX_CONTENT_MB', 4)) * 1024 * 1024,
  };
}
