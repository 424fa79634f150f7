import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** The part of istanbul's coverage map that Vitest hands to reporters and that this one reads. */
interface CoverageMap {
  getCoverageSummary(): { lines: { pct: number; covered: number; total: number } };
}

/** How many of the slowest test files the summary lists. */
const SLOWEST_LISTED = 15;

/**
 * Ends a run with the 15 slowest test files, the line coverage and one plain line,
 * `Tests: N passed, N failed, N skipped`, that CI and people can read without knowing Vitest's own summary
 * format. (Vitest reports coverage before the end of the run, so these lines come last.) When
 * `TEST_SLOWEST_FILE` names a file, the slowest files are written there too, for `.ci/run` to print again at
 * the very end of its output.
 */
export default class SummaryReporter implements Reporter {
  private coverageLine = '';

  onCoverage(coverage: unknown): void {
    const lines = (coverage as CoverageMap).getCoverageSummary().lines;
    this.coverageLine = `Coverage of lines: ${lines.pct}% (${lines.covered}/${lines.total}); details in coverage/index.html\n`;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      // A file that failed to load has no tests to count but is still a failure.
      if (testModule.state() === 'failed' && testModule.children.size === 0) counts.failed += 1;
    }
    const timed = fileTimes(testModules);
    if (process.env.TEST_COUNTS_FILE) {
      appendFileSync(process.env.TEST_COUNTS_FILE, `${counts.passed}\t${counts.failed}\t${counts.skipped}\n`);
    }
    if (process.env.TEST_TIMES_FILE) {
      appendFileSync(
        process.env.TEST_TIMES_FILE,
        timed.map((entry) => `${entry.seconds.toFixed(1)}\t${entry.label}\n`).join(''),
      );
    }
    process.stdout.write(
      `\n${slowestFiles(timed)}\n${this.coverageLine}Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}

interface FileTime {
  /** The file's path from the repository root and its Vitest project. */
  label: string;
  seconds: number;
}

/**
 * Each file's wall time in its worker, slowest first: setting up its environment and harness, importing it
 * (collect) and its tests and hooks, which is what a file adds to the run.
 */
function fileTimes(testModules: ReadonlyArray<TestModule>): FileTime[] {
  const timed = testModules.map((testModule) => {
    const diagnostic = testModule.diagnostic();
    const milliseconds =
      diagnostic.environmentSetupDuration +
      diagnostic.prepareDuration +
      diagnostic.setupDuration +
      diagnostic.collectDuration +
      diagnostic.duration;
    return {
      label: `${relative(process.cwd(), testModule.moduleId)} (${testModule.project.name})`,
      seconds: milliseconds / 1000,
    };
  });
  return timed.sort((a, b) => b.seconds - a.seconds);
}

function slowestFiles(timed: readonly FileTime[]): string {
  const total = timed.reduce((sum, entry) => sum + entry.seconds, 0);
  return [
    `The ${Math.min(SLOWEST_LISTED, timed.length)} slowest of ${timed.length} test files (${Math.round(total)} s in all, summed over the workers):`,
    ...timed
      .slice(0, SLOWEST_LISTED)
      .map((entry) => `${entry.seconds.toFixed(1).padStart(7)} s  ${entry.label}`),
    '',
  ].join('\n');
}
