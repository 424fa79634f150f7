/**
 * `pnpm bench sdk`: the widget SDK's weight and speed.
 * - gzip -9 sizes of the script-tag bundle (mp-widget.js, goal <= 25 KB) and of the loader alone
 *   (mp-loader.js, goal <= 3 KB);
 * - the time from the start of the script's download to the first frame showing a plugin card with the
 *   real server's data, and to the first frame showing its 30-day download chart, in Chromium (median of 20
 *   page loads, each in a fresh browser context: cold cache).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { HOST_PAGE_HOST, launchChromium } from '../support/browser';
import buildSdkWhenNeeded from '../support/build-sdk';
import { findDemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import { SDK_BUNDLE, SDK_LOADER } from '../support/paths';

const RUNS = 20;
const KB = 1024;

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

function sizeLine(name: string, bytes: number, goalKb: number): string {
  const verdict = bytes <= goalKb * KB ? 'within' : 'OVER';
  return `  ${name.padEnd(13)} ${String(bytes).padStart(6)} bytes = ${(bytes / KB).toFixed(2)} KB  (goal <= ${goalKb} KB: ${verdict})`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

buildSdkWhenNeeded();
console.log('Widget SDK, gzip -9:');
console.log(sizeLine('mp-widget.js', gzipSize(SDK_BUNDLE), 25));
console.log(sizeLine('mp-loader.js', gzipSize(SDK_LOADER), 3));

const marketplace = await startMarketplace();
const { plugin } = await findDemoItems(marketplace.origin);
const page = (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card timing</title></head><body>
<mp-plugin-card plugin-id="${plugin.id}"></mp-plugin-card>
<script>
  // The first frames in which the card shows the item's name, and its download chart.
  (function watch() {
    const root = document.querySelector('mp-plugin-card')?.shadowRoot;
    if (window.renderedAt === undefined && root?.querySelector('.mp-card__name')) window.renderedAt = performance.now();
    if (window.chartAt === undefined && root?.querySelector('.mp-chart__caption')) window.chartAt = performance.now();
    if (window.chartAt === undefined) requestAnimationFrame(watch);
  })();
</script>
<script src="${marketplace.origin}/sdk/mp-widget.js"></script>
</body></html>`);
};
const hostPages = await startTestHttpServer({ mounts: [], routes: { '/card.html': page } });
const browser = await launchChromium();
try {
  const timings: number[] = [];
  const chartTimings: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/card.html`);
    await tab.waitForFunction(() => (window as unknown as { chartAt?: number }).chartAt !== undefined);
    const [card, chart] = await tab.evaluate(() => {
      const script = performance
        .getEntriesByType('resource')
        .find((entry) => entry.name.endsWith('/sdk/mp-widget.js'));
      const marks = window as unknown as { renderedAt: number; chartAt: number };
      return [marks.renderedAt - (script?.startTime ?? 0), marks.chartAt - (script?.startTime ?? 0)];
    });
    timings.push(card ?? Number.NaN);
    chartTimings.push(chart ?? Number.NaN);
    await context.close();
  }
  const summary = (values: number[]) =>
    `median ${median(values).toFixed(1)} ms (min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`;
  console.log(
    `Script load to rendered card (plugin ${plugin.id}), Chromium, ${RUNS} runs: ${summary(timings)}`,
  );
  console.log(`Script load to the card's download chart: ${summary(chartTimings)}`);
} finally {
  await browser.close();
  await hostPages.close();
  await marketplace.close();
}
