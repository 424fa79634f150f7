// pnpm bench site: Lighthouse (performance only) on the home and item pages of a freshly started server with the
// demo catalogue, in Debian's Chromium, and the initial JavaScript of each page (gzip, as the server sends it).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { buildSite, startSiteServer } from '../../e2e/site/support/site-server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCORE_GOAL = 90;
const JS_GOAL_KB = 150;
const siteDist = new URL('../dist/', import.meta.url);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The scripts index.html loads before any page code: the entry and its module preloads. */
async function entryScriptsGzipBytes(): Promise<number> {
  const html = await readFile(new URL('index.html', siteDist), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(new URL(file, siteDist)), { level: 9 }).length;
  return total;
}

interface NetworkRequest {
  resourceType?: string;
  transferSize?: number;
  url: string;
}

async function main() {
  buildSite();
  const server = await startSiteServer();
  const debuggingPort = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'lighthouse-chromium-'));
  const chromium = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--remote-debugging-port=${debuggingPort}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const item = (await (
      await fetch(`${server.origin}/api/searchPlugins?orderBy=downloads&max=1`)
    ).json()) as {
      plugins: { link: string }[];
    };
    const pages = [
      ['home', `${server.origin}/`],
      ['item', `${server.origin}${item.plugins[0]!.link}`],
    ] as const;
    console.log(
      `Entry scripts (index.html): ${((await entryScriptsGzipBytes()) / 1024).toFixed(1)} KB gzip -9`,
    );
    for (const [formFactor, config] of [
      ['mobile', undefined],
      ['desktop', desktopConfig],
    ] as const) {
      for (const [name, url] of pages) {
        const result = await lighthouse(
          url,
          { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
          config,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        if (result.lhr.runtimeError) {
          console.log(
            `${formFactor.padEnd(7)} ${name.padEnd(4)} Lighthouse failed: ${result.lhr.runtimeError.message}`,
          );
          continue;
        }
        const score = Math.round((result.lhr.categories.performance?.score ?? 0) * 100);
        const requests = ((result.lhr.audits['network-requests']?.details as { items?: NetworkRequest[] })
          ?.items ?? []) as NetworkRequest[];
        const scriptBytes = requests
          .filter((request) => request.resourceType === 'Script' && request.url.startsWith(server.origin))
          .reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
        const metric = (id: string) => result.lhr.audits[id]?.displayValue ?? '?';
        console.log(
          `${formFactor.padEnd(7)} ${name.padEnd(4)} performance ${score} (goal ${SCORE_GOAL}), ` +
            `initial JavaScript ${(scriptBytes / 1024).toFixed(1)} KB transferred (goal ${JS_GOAL_KB} KB gzip), LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
        );
      }
    }
  } finally {
    chromium.kill('SIGTERM');
    await server.close();
    await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

await main();
