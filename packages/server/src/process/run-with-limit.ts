import { spawn } from 'node:child_process';

/**
 * The process groups of the commands running now. When the server exits (stopped, even at its deadline, with
 * a verifier still running for a job it left behind), they are killed with it rather than left orphaned
 * until their own time limit, which nothing would enforce any more.
 */
const runningGroups = new Set<number>();
let killOnExit = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** How a command ended: its exit code (null when it could not be started or was killed), its output. */
export interface RunOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The time limit was reached and the command's process group was killed. */
  timedOut: boolean;
}

/**
 * Runs a command without a shell and without input, in a process group of its own that is killed whole
 * (SIGKILL) when `timeoutMs` is up, since tools such as clamdscan or the JVM may start helpers. Keeps at most
 * `maxOutputBytes` of stdout and stderr together; a failure to start resolves with code null and the reason
 * on stderr. Never rejects.
 */
export function runWithLimit(
  command: string,
  args: readonly string[],
  limits: { timeoutMs: number; maxOutputBytes: number },
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const group = child.pid;
    if (group !== undefined) {
      runningGroups.add(group);
      if (!killOnExit) {
        killOnExit = true;
        process.once('exit', () => runningGroups.forEach(killGroup));
      }
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let kept = 0;
    let timedOut = false;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      kept += chunk.length;
      if (kept <= limits.maxOutputBytes) into.push(chunk);
    };
    child.stdout.on('data', keep(stdout));
    child.stderr.on('data', keep(stderr));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limits.timeoutMs);
    let spawnFailed = false;
    const finish = (code: number | null) => {
      clearTimeout(timer);
      if (group !== undefined) runningGroups.delete(group);
      resolve({
        code: spawnFailed ? null : code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
      });
    };
    child.on('error', (error) => {
      spawnFailed = true;
      stderr.push(Buffer.from(error.message));
      finish(null);
    });
    child.on('close', finish);
  });
}
