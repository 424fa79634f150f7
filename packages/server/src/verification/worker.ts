import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { claimedTargets, type VerificationTarget } from '@marketplace/core';
import { readPluginDescriptor } from '../archive/descriptor';
import type { ArchiveLimits } from '../archive/limits';
import { ArchiveRejection } from '../archive/zip-stream';
import type { Database } from '../db/client';
import { LeaseLost, PermanentFailure, workLeaseQueue, type ClaimedJob } from '../db/lease-queue';
import { flagVersionForModeration } from '../publishing/moderation-flags';
import type { FileStore } from '../storage';
import { readArchiveContents, type ArchiveContents } from './archive-contents';
import {
  BUILT_IN_CHECKERS,
  type CheckContext,
  type Checker,
  type DependencyLookup,
  type Finding,
  type VersionFacts,
} from './checkers';
import { externalVerifierChecker, externalVerifierVersion } from './external-verifier';
import type { VerificationOptions } from './options';
import { verificationQueue } from './queue';
import {
  BUILT_IN_VERIFIER_VERSION,
  dependencyLookup,
  loadVerification,
  loadVersionFacts,
  saveVerification,
} from './repository';

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface VerificationEnvironment {
  db: Database;
  fileStore: FileStore;
  /** Scratch space for archives being verified, on the data disk. */
  tempDir: string;
  options: VerificationOptions;
  archiveLimits?: Partial<ArchiveLimits>;
  log: Log;
  /** The checks to run; by default the built-in ones and, when configured, the external verifier. */
  checkers?: readonly Checker[];
}

/** The checks of an environment: the built-in list, then the operator's IntelliJ Plugin Verifier if any. */
export function checkersOf(env: Pick<VerificationEnvironment, 'options' | 'checkers'>): readonly Checker[] {
  if (env.checkers) return env.checkers;
  const external = env.options.external;
  return external ? [...BUILT_IN_CHECKERS, externalVerifierChecker(external)] : BUILT_IN_CHECKERS;
}

/** The version string results carry: the built-in checks', and the external verifier's when it ran. */
export function verifierVersionOf(env: Pick<VerificationEnvironment, 'options'>): string {
  const external = env.options.external;
  if (!external) return BUILT_IN_VERIFIER_VERSION;
  return `${BUILT_IN_VERIFIER_VERSION}+plugin-verifier/${externalVerifierVersion(external.jar) ?? 'unknown'}`;
}

/**
 * Runs the checks over an archive on disk: reads it once (src/archive's reader and limits), works out the
 * builds the version claims, and collects every checker's findings. No database access of its own.
 */
export async function checkArchive(input: {
  archivePath: string;
  version: VersionFacts;
  checkers: readonly Checker[];
  findDependency: DependencyLookup;
  oversizeJarBytes: number;
  tempDir: string;
  archiveLimits?: Partial<ArchiveLimits>;
}): Promise<{ targets: VerificationTarget[]; findings: Finding[] }> {
  const { version } = input;
  let archive: ArchiveContents | undefined;
  let archiveError: string | undefined;
  try {
    archive = await readArchiveContents(input.archivePath, {
      fileName: version.fileName,
      tempDir: input.tempDir,
      ...(input.archiveLimits ? { limits: input.archiveLimits } : {}),
    });
  } catch (error) {
    if (!(error instanceof ArchiveRejection)) throw error;
    archiveError = error.message;
  }
  const targets: VerificationTarget[] = claimedTargets(version.sinceBuild, version.untilBuild);
  const context: CheckContext = {
    version,
    targets: [...targets],
    archive,
    archiveError,
    archivePath: input.archivePath,
    descriptor: archive?.descriptor ? readPluginDescriptor(archive.descriptor, new Date()) : undefined,
    findDependency: input.findDependency,
    oversizeJarBytes: input.oversizeJarBytes,
    addTargets: (more) => {
      for (const target of more) {
        if (!targets.some((known) => known.productBuild === target.productBuild)) targets.push(target);
      }
    },
  };
  const findings: Finding[] = [];
  for (const checker of input.checkers) findings.push(...(await checker.check(context)));
  return { targets, findings };
}

/**
 * Works the queue: claims jobs one at a time and verifies them until none is due (or `maxJobs` ran).
 * Returns how many jobs it took. The in-process loop calls it on an interval; tests call it directly.
 */
export async function runVerificationWorker(
  env: VerificationEnvironment,
  options: { worker?: string; maxJobs?: number } = {},
): Promise<number> {
  const worker = options.worker ?? `worker-${randomBytes(6).toString('hex')}`;
  return workLeaseQueue(
    verificationQueue,
    env.db,
    {
      worker,
      leaseMs: env.options.leaseMs,
      ...(options.maxJobs !== undefined ? { maxJobs: options.maxJobs } : {}),
    },
    {
      run: (job, leaseLost) => verify(env, job, worker, leaseLost),
      done: (job, outcome) =>
        env.log.info({ jobId: job.id, versionId: job.versionId, ...outcome }, 'version verified'),
      lost: (job) =>
        env.log.warn({ jobId: job.id }, 'verification lease lost; another worker took the job over'),
      failed: (job, error) =>
        env.log.error({ err: error, jobId: job.id, attempt: job.attempts }, 'verification failed'),
    },
  );
}

async function verify(
  env: VerificationEnvironment,
  job: ClaimedJob,
  worker: string,
  leaseLost: () => boolean,
): Promise<{ verificationId: number; status: string }> {
  const version = await loadVersionFacts(env.db, job.versionId);
  if (!version) throw new PermanentFailure(`Version ${job.versionId} no longer exists.`);
  const opened = await env.fileStore.open(version.fileHash);
  if (!opened) {
    throw new PermanentFailure(`The archive of version ${version.version} is missing from the file store.`);
  }
  const scratch = await mkdtemp(join(env.tempDir, 'verify-'));
  try {
    const archivePath = join(scratch, version.fileName.replace(/[^\w.+-]/g, '_') || 'plugin.zip');
    await pipeline(opened.stream, createWriteStream(archivePath, { flags: 'wx' }));
    const checkers = checkersOf(env);
    const { targets, findings } = await checkArchive({
      archivePath,
      version,
      checkers,
      findDependency: dependencyLookup(env.db),
      oversizeJarBytes: env.options.oversizeJarBytes,
      tempDir: scratch,
      ...(env.archiveLimits ? { archiveLimits: env.archiveLimits } : {}),
    });
    if (leaseLost()) throw new LeaseLost();
    return await env.db.transaction(async (tx) => {
      if (!(await verificationQueue.complete(tx, job.id, worker))) throw new LeaseLost();
      const verificationId = await saveVerification(tx, {
        jobId: job.id,
        version,
        types: [...new Set(checkers.map((checker) => checker.type))],
        verifierVersion: verifierVersionOf(env),
        targets,
        findings,
      });
      const saved = await loadVerification(tx, verificationId);
      if (saved && saved.status === 'problems') {
        const problems = saved.findings.filter(
          (finding) => finding.severity === 'problem' && finding.falsePositive === null,
        );
        await flagVersionForModeration(tx, {
          pluginId: version.pluginId,
          versionId: version.id,
          version: version.version,
          source: 'verification',
          text:
            `Verification ${verificationId} of version ${version.version} found ${problems.length} ` +
            `problem${problems.length === 1 ? '' : 's'}: ` +
            problems
              .slice(0, 3)
              .map((problem) => problem.message)
              .join(' ') +
            (problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''),
        });
      }
      return { verificationId, status: saved?.status ?? 'compatible' };
    });
  } finally {
    opened.stream.destroy();
    await rm(scratch, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
}
