import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with one plain line, `Tests: N passed, N failed, N skipped`, that CI and people can read
 * without knowing Vitest's own summary format.
 */
export default class SummaryReporter implements Reporter {
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
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
