import { describe, expect, it } from 'vitest';
import { budgetFailures, formatSizeTable, measureSdk } from '../../tooling/sdk-size';

/**
 * The SDK's size budget on the build this project's setup made (support/build-sdk.ts): `pnpm test` fails when
 * a page that uses the SDK downloads more than its limit in tooling/sdk-size.ts. No browser; it is here
 * because this is the project that builds the SDK first.
 */
describe('the widget SDK size budget', () => {
  it('keeps every page within its gzip limit', () => {
    const report = measureSdk();
    console.log(formatSizeTable(report));
    expect(budgetFailures(report)).toEqual([]);
  });
});
