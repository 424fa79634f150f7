/**
 * `pnpm bench sdk-size`: the gzip -9 size of what a page downloads of the widget SDK, per element with
 * mp-loader.js, for all five, and for the single file mp-widget.js, against the limits and the goals of
 * tooling/sdk-size.ts (the same table as `pnpm size`). Builds the SDK first when it is missing or stale.
 */
import { budgetFailures, formatSizeTable, measureSdk } from '../../tooling/sdk-size';
import buildSdkWhenNeeded from '../support/build-sdk';

buildSdkWhenNeeded();
const report = measureSdk();
console.log(formatSizeTable(report));
for (const failure of budgetFailures(report)) console.log(`OVER: ${failure}`);
