import type { ExternalVerifierOptions } from './external-verifier';

export interface VerificationOptions {
  /** How often the in-process worker looks for queued jobs, in ms; 0: never (tests call the worker). */
  workerIntervalMs: number;
  /** How long a worker owns a job it claimed; a job whose worker died is taken up again after this. */
  leaseMs: number;
  /** Runs of a job before it is given up as failed. */
  maxAttempts: number;
  /** Jars larger than this are reported (archive hygiene). */
  oversizeJarBytes: number;
  /** The operator's IntelliJ Plugin Verifier, when configured. */
  external: ExternalVerifierOptions | undefined;
}

export class VerificationConfigError extends Error {
  override name = 'VerificationConfigError';
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new VerificationConfigError(`${name} must be a number of 0 or more, got "${text}".`);
  }
  return value;
}

/**
 * From the environment: `VERIFICATION_INTERVAL_SECONDS` (10; 0 turns the worker off),
 * `VERIFICATION_LEASE_SECONDS` (900), `VERIFICATION_MAX_ATTEMPTS` (3), `VERIFICATION_OVERSIZE_JAR_MB` (50),
 * and for the external verifier `PLUGIN_VERIFIER_JAR`, `PLUGIN_VERIFIER_IDE_DIRS` (paths separated by
 * the system's path delimiter, ':' or ';'), `PLUGIN_VERIFIER_JAVA` (java) and
 * `PLUGIN_VERIFIER_TIMEOUT_SECONDS` (600).
 */
export function verificationOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): VerificationOptions {
  const jar = env.PLUGIN_VERIFIER_JAR?.trim() ?? '';
  const ideDirectories = (env.PLUGIN_VERIFIER_IDE_DIRS ?? '')
    .split(/[:;]/)
    .map((directory) => directory.trim())
    .filter((directory) => directory !== '');
  if (jar !== '' && ideDirectories.length === 0) {
    throw new VerificationConfigError(
      'PLUGIN_VERIFIER_JAR is set but PLUGIN_VERIFIER_IDE_DIRS names no IDE to verify against.',
    );
  }
  const timeoutMs = number(env, 'PLUGIN_VERIFIER_TIMEOUT_SECONDS', 600) * 1000;
  return {
    workerIntervalMs: number(env, 'VERIFICATION_INTERVAL_SECONDS', 10) * 1000,
    leaseMs: Math.max(number(env, 'VERIFICATION_LEASE_SECONDS', 900) * 1000, timeoutMs + 60_000),
    maxAttempts: Math.max(1, Math.floor(number(env, 'VERIFICATION_MAX_ATTEMPTS', 3))),
    oversizeJarBytes: number(env, 'VERIFICATION_OVERSIZE_JAR_MB', 50) * 1024 * 1024,
    external:
      jar === ''
        ? undefined
        : {
            jar,
            ideDirectories,
            javaCommand: env.PLUGIN_VERIFIER_JAVA?.trim() || 'java',
            timeoutMs,
          },
  };
}
