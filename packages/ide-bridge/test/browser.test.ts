// The bridge in Debian's Chromium against the simulator: real CORS, real Origin headers and Local Network
// Access. Pages are served on loopback under host names Chromium maps to 127.0.0.1, and some of their ports
// are declared public, so that the browser treats them as sites on the internet.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator, IdeSimulatorOptions } from '@marketplace/ide-simulator';
import type * as BridgeModule from '../src/index';
import { freePortBlock } from './support';

declare global {
  interface Window {
    bridgeModule: typeof BridgeModule;
  }
}

/** A site on this machine, but not named localhost: the IDE does not trust it without asking. */
const OTHER_SITE = 'other-site.test';
/** A public https-like site (Chromium is told to treat it as secure): Local Network Access applies. */
const PUBLIC_SECURE_SITE = 'public-secure.test';
/** A public plain-http site: Chromium never lets it reach loopback. */
const PUBLIC_INSECURE_SITE = 'public-insecure.test';

let browser: Browser;
let pageBase: number;
let ideBase: number;
const pageServers: Server[] = [];
const simulators: IdeSimulator[] = [];
const contexts: BrowserContext[] = [];

const pageUrl = (site: string, offset: number) => `http://${site}:${pageBase + offset}/`;
const sites = {
  localhost: () => `http://127.0.0.1:${pageBase}/`,
  other: () => pageUrl(OTHER_SITE, 1),
  publicSecure: () => pageUrl(PUBLIC_SECURE_SITE, 2),
  publicInsecure: () => pageUrl(PUBLIC_INSECURE_SITE, 3),
};

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const html =
    '<!doctype html><title>IDE bridge</title>' +
    '<script type="module">import * as m from "/bridge.js"; window.bridgeModule = m;</script>';

  pageBase = await freePortBlock(4);
  ideBase = await freePortBlock(12);
  for (let offset = 0; offset < 4; offset++) {
    const server = createServer((request, response) => {
      const isScript = request.url === '/bridge.js';
      response.writeHead(200, { 'Content-Type': isScript ? 'text/javascript' : 'text/html' });
      response.end(isScript ? script : html);
    });
    await new Promise<void>((resolve) => server.listen(pageBase + offset, '127.0.0.1', resolve));
    pageServers.push(server);
  }

  const mapped = [OTHER_SITE, PUBLIC_SECURE_SITE, PUBLIC_INSECURE_SITE].map(
    (host) => `MAP ${host} 127.0.0.1`,
  );
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--host-resolver-rules=${mapped.join(', ')}`,
      `--ip-address-space-overrides=127.0.0.1:${pageBase + 2}=public,127.0.0.1:${pageBase + 3}=public`,
      `--unsafely-treat-insecure-origin-as-secure=${sites.publicSecure().slice(0, -1)}`,
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(pageServers.map((server) => new Promise((resolve) => server.close(resolve))));
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function runIde(options: IdeSimulatorOptions = {}): Promise<IdeSimulator> {
  const simulator = await startIdeSimulator({ port: ideBase, installDurationMs: 0, ...options });
  simulators.push(simulator);
  return simulator;
}

async function openPage(url: string): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.bridgeModule !== undefined);
  return page;
}

/** Finds the IDEs from the page, then installs into the first one; answers what happened, as data. */
function installFromPage(page: Page, pluginId: string) {
  return page.evaluate(
    async ({ start, pluginId }) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      try {
        const [ide] = await bridge.findRunningIdes({ userGesture: true });
        if (!ide) return { outcome: 'no IDE found' };
        await bridge.installPlugin(ide, pluginId);
        return { outcome: 'installed', ide: ide.name, product: ide.productKey };
      } catch (error) {
        const failure = error as BridgeModule.IdeBridgeError;
        return { outcome: 'failed', kind: failure.kind, status: failure.status, message: failure.message };
      }
    },
    { start: ideBase, pluginId },
  );
}

describe('in Chromium', { timeout: 30_000 }, () => {
  it('finds the IDE and installs from a page on localhost, which the IDE trusts', async () => {
    const simulator = await runIde({
      name: 'GoLand 2025.2',
      buildNumber: 'GO-252.1',
      untrustedOrigins: 'refuse',
    });
    const page = await openPage(sites.localhost());
    expect(await installFromPage(page, 'com.example.tool')).toEqual({
      outcome: 'installed',
      ide: 'GoLand 2025.2',
      product: 'GOLAND',
    });
    expect(simulator.installedPluginIds()).toEqual(['com.example.tool']);
    expect(simulator.requests.at(-1)?.origin).toBe(sites.localhost().slice(0, -1));
  });

  it('tells a refusal (403) from another site apart from a missing IDE, thanks to CORS on errors', async () => {
    await runIde({ untrustedOrigins: 'refuse' });
    const page = await openPage(sites.other());
    expect(await installFromPage(page, 'com.example.tool')).toMatchObject({
      outcome: 'failed',
      kind: 'refused',
      status: 403,
    });
  });

  it('from another site, waits while the IDE asks whether to trust it, then installs once the visitor says yes', async () => {
    const simulator = await runIde();
    const page = await openPage(sites.other());
    const firstLook = await page.evaluate(async (start) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      (window as unknown as { bridge: unknown }).bridge = bridge;
      return bridge.findRunningIdes({ userGesture: true }).then(
        () => 'found',
        (error: BridgeModule.IdeBridgeError) => error.kind,
      );
    }, ideBase);
    expect(firstLook).toBe('awaiting-confirmation');
    expect(simulator.pendingConfirmations()).toMatchObject([{ host: OTHER_SITE, waiting: 1 }]);

    const installed = page.evaluate(async () => {
      const bridge = (window as unknown as { bridge: BridgeModule.IdeBridge }).bridge;
      const [ide] = await bridge.findRunningIdes({ waitForConfirmation: true });
      if (!ide) return 'no IDE found';
      await bridge.installPlugin(ide, 'com.example.tool');
      return `installed into ${ide.name}`;
    });
    simulator.confirmPending(true);
    expect(await installed).toBe('installed into IntelliJ IDEA 2025.2');
    expect(simulator.installedPluginIds()).toEqual(['com.example.tool']);
  });

  it('reports rate limiting (429) from the page', async () => {
    await runIde({ rateLimitPerMinute: 1, untrustedOrigins: 'accept' });
    const page = await openPage(sites.other());
    expect(await installFromPage(page, 'com.example.tool')).toMatchObject({
      kind: 'rate-limited',
      status: 429,
    });
  });

  it('reports an IDE that has quit as no-ide', async () => {
    const simulator = await runIde();
    const page = await openPage(sites.localhost());
    const result = await page.evaluate(async (start) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      const [ide] = await bridge.findRunningIdes();
      (window as unknown as { ide: unknown }).ide = ide;
      return ide?.port;
    }, ideBase);
    expect(result).toBe(ideBase);
    await simulator.close();
    const kind = await page.evaluate(async (start) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      const ide = (window as unknown as { ide: BridgeModule.DiscoveredIde }).ide;
      return bridge.installPlugin(ide, 'com.example.tool').then(
        () => 'installed',
        (error: BridgeModule.IdeBridgeError) => error.kind,
      );
    }, ideBase);
    expect(kind).toBe('no-ide');
  });

  it('on a public site, waits for a user gesture while Local Network Access would prompt', async () => {
    const simulator = await runIde({ untrustedOrigins: 'accept' });
    const page = await openPage(sites.publicSecure());
    const beforeGesture = await page.evaluate(async (start) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      const updates: BridgeModule.RunningIdesUpdate[] = [];
      const unsubscribe = bridge.subscribe((update) => updates.push(update));
      const found = await bridge.findRunningIdes();
      unsubscribe();
      return { permission: await bridge.localNetworkPermission(), found, updates };
    }, ideBase);
    expect(beforeGesture).toEqual({
      permission: 'prompt',
      found: [],
      updates: [{ status: 'awaiting-gesture' }],
    });
    expect(simulator.requests).toEqual([]);

    // The visitor clicks and allows the browser's prompt.
    await page
      .context()
      .grantPermissions(['local-network-access'], { origin: sites.publicSecure().slice(0, -1) });
    expect(await installFromPage(page, 'com.example.tool')).toMatchObject({ outcome: 'installed' });
  });

  it('on a public plain-http site, reports the permission as denied, and nothing reaches the IDE', async () => {
    const simulator = await runIde();
    const page = await openPage(sites.publicInsecure());
    const kind = await page.evaluate(async (start) => {
      const bridge = window.bridgeModule.createIdeBridge({ ports: { start } });
      return bridge.findRunningIdes({ userGesture: true }).then(
        () => 'found',
        (error: BridgeModule.IdeBridgeError) => error.kind,
      );
    }, ideBase);
    expect(kind).toBe('permission-denied');
    expect(simulator.requests).toEqual([]);
  });
});
