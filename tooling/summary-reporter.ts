import type { Reporter, TestModule } from 'vitest/node';

/** The part of istanbul's coverage map that Vitest hands to reporters and that this one reads. */
interface CoverageMap {
  getCoverageSummary(): { lines: { pct: number; covered: number; total: number } };
}

/**
 * Ends a run with the line coverage and one plain line, `Tests: N passed, N failed, N skipped`, that CI
 * and people can read without knowing Vitest's own summary format. (Vitest reports coverage before the
 * end of the run, so both lines come last.)
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
    process.stdout.write(
      `\n${this.coverageLine}Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
