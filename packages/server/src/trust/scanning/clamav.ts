import { runWithLimit } from '../../process/run-with-limit';
import { WHOLE_ARCHIVE, type ScanFinding } from './findings';
import type { ClamavOptions } from './options';

/*
 * ClamAV as an optional engine (Debian's `clamav` package gives clamscan; `clamdscan` talks to a running
 * clamd). Both are run as `<command> --no-summary [SCAN_CLAMAV_ARGS] <archive>` and answer the same way
 * (clamscan(1), clamdscan(1)): one line per file, `<path>: <signature> FOUND` or `<path>: OK`, errors on
 * stderr (`LibClamAV Error: ...`, `WARNING: ...`), and the exit code
 *   0  no virus found,
 *   1  virus(es) found,
 *   2  an error occurred (no signature database, a file it could not read, clamd not answering).
 * ClamAV opens zips and jars itself and names the archive, not the entry, in its report.
 */

export interface ClamavOutcome {
  findings: ScanFinding[];
  /** Why ClamAV could not scan (exit 2, another code, a failure to start, the time limit); undefined when it did. */
  error: string | undefined;
}

/** Output beyond this is not kept: a report of one archive is a few lines. */
const MAX_OUTPUT_BYTES = 256 * 1024;

/** The signatures of `<path>: <signature> FOUND` lines. */
export function parseClamavReport(stdout: string): string[] {
  const signatures: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const found = /^.*: (.+) FOUND$/.exec(line.trim());
    if (found) signatures.push(found[1]!.trim());
  }
  return [...new Set(signatures)];
}

/** Runs ClamAV over the archive and reads its verdict. */
export async function scanWithClamav(options: ClamavOptions, archivePath: string): Promise<ClamavOutcome> {
  // A process group of its own, killed whole when the time is up (clamdscan may start helpers).
  const outcome = await runWithLimit(options.command, ['--no-summary', ...options.args, archivePath], {
    timeoutMs: options.timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  const detail = (outcome.stderr.trim() || outcome.stdout.trim()).slice(-500);
  if (outcome.timedOut) {
    const seconds = Math.max(1, Math.round(options.timeoutMs / 1000));
    return {
      findings: [],
      error: `ClamAV did not finish within ${seconds} second${seconds === 1 ? '' : 's'} and was stopped.`,
    };
  }
  if (outcome.code === null) {
    return {
      findings: [],
      error: `ClamAV (${options.command}) could not be started${detail ? `: ${detail}` : '.'}`,
    };
  }
  if (outcome.code === 0) return { findings: [], error: undefined };
  if (outcome.code === 1) {
    const signatures = parseClamavReport(outcome.stdout);
    return {
      findings: (signatures.length > 0 ? signatures : ['a signature it did not name']).map((signature) => ({
        kind: 'clamav',
        severity: 'critical',
        path: WHOLE_ARCHIVE,
        message: `ClamAV reports ${signature} in the archive.`,
      })),
      error: undefined,
    };
  }
  return {
    findings: [],
    error: `ClamAV ended with exit code ${outcome.code} (${outcome.code === 2 ? 'an error' : 'unknown'})${detail ? `: ${detail}` : '.'}`,
  };
}

const versions = new Map<string, Promise<string>>();

/** `clamav ClamAV 1.4.6/27470/...` as the engine's name in results (asked once per command and process). */
export function clamavEngineName(options: ClamavOptions): Promise<string> {
  let known = versions.get(options.command);
  if (!known) {
    known = runWithLimit(options.command, ['--version'], {
      timeoutMs: 10_000,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    }).then((outcome) => {
      const line = outcome.stdout.trim().split(/\r?\n/)[0]?.trim();
      return outcome.code === 0 && line ? `clamav ${line}` : 'clamav';
    });
    versions.set(options.command, known);
  }
  return known;
}
