// An IDE that asks its user whether to trust the page: the real IDE holds its answer to every
// /api/installPlugin request from a page it does not trust until the user replies to its dialog.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import {
  CONFIRMATION_NOTICE_MS,
  createIdeBridge,
  IDE_CONFIRMATION_TIMEOUT_MS,
  IdeBridgeError,
} from '../src/index';
import type { IdeBridgeOptions, RunningIdesUpdate } from '../src/index';
import { freePortBlock, fromPage, ManualClock, startIdes, waitUntil } from './support';

const PAGE = 'https://blog.example.org';
let base: number;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** An IDE that asks about every page but localhost, as the real one does. */
async function askingIde(): Promise<IdeSimulator> {
  const started = await startIdes(base, [0], () => ({ untrustedOrigins: 'ask', installDurationMs: 0 }));
  cleanups.push(started.close);
  const [simulator] = started.ides;
  if (!simulator) throw new Error('the simulated IDE did not start');
  return simulator;
}

/** The bridge on a page of another site. */
function bridgeOnPage(options: IdeBridgeOptions = {}) {
  return createIdeBridge({ ports: { start: base }, permission: false, fetch: fromPage(PAGE), ...options });
}

const ideAt = (port: number) => ({ name: 'IntelliJ IDEA 2025.0', buildNumber: 'IU-252.23892.409', port });

async function failureOf(promise: Promise<unknown>): Promise<IdeBridgeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof IdeBridgeError)) throw new Error(`expected an IdeBridgeError, got ${String(error)}`);
  return error;
}

describe('an install the IDE holds while it asks whether to trust the page', () => {
  it('is reported as awaiting confirmation after a moment, and installs once the visitor says yes', async () => {
    const simulator = await askingIde();
    const events: string[] = [];
    const install = bridgeOnPage().installPlugin(ideAt(base), 'com.example.tool', {
      onAwaitingConfirmation: () => events.push('awaiting confirmation'),
    });
    await waitUntil(() => events.length > 0, 5_000);
    expect(events).toEqual(['awaiting confirmation']);
    expect(simulator.pendingConfirmations()).toMatchObject([{ host: 'blog.example.org', waiting: 1 }]);
    expect(simulator.installedPluginIds()).toEqual([]);
    simulator.confirmPending(true);
    await install;
    expect(simulator.installedPluginIds()).toEqual(['com.example.tool']);
    expect(events).toEqual(['awaiting confirmation']);
  });

  it('is refused (403), not "no IDE", when the visitor says no in the IDE', async () => {
    const simulator = await askingIde();
    let awaited = false;
    const install = bridgeOnPage().installPlugin(ideAt(base), 'com.example.tool', {
      onAwaitingConfirmation: () => (awaited = true),
    });
    await waitUntil(() => awaited, 5_000);
    simulator.confirmPending(false);
    expect(await failureOf(install)).toMatchObject({ kind: 'refused', status: 403, port: base });
    expect(simulator.installedPluginIds()).toEqual([]);
  });

  it('waits two minutes for the answer by default, then gives up with a clear outcome', async () => {
    const simulator = await askingIde();
    const clock = new ManualClock();
    let awaited = false;
    let settled = false;
    const install = bridgeOnPage({ clock }).installPlugin(ideAt(base), 'com.example.tool', {
      onAwaitingConfirmation: () => (awaited = true),
    });
    void install.then(
      () => (settled = true),
      () => (settled = true),
    );
    await waitUntil(() => simulator.pendingConfirmations().length === 1);
    clock.advance(CONFIRMATION_NOTICE_MS);
    expect(awaited).toBe(true);
    clock.advance(IDE_CONFIRMATION_TIMEOUT_MS - CONFIRMATION_NOTICE_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    clock.advance(1);
    const error = await failureOf(install);
    expect(error).toMatchObject({ kind: 'confirmation-timeout', port: base });
    expect(error.message).toBe(
      'IntelliJ IDEA 2025.0 is still asking whether to trust this site. Answer it in the IDE, then try again.',
    );
    // The IDE is still asking: saying yes now installs the plugin, as the real IDE would.
    expect(simulator.pendingConfirmations()).toHaveLength(1);
  });

  it('is not reported as awaiting confirmation when the IDE trusts the page', async () => {
    await askingIde();
    const clock = new ManualClock();
    let awaited = false;
    const localBridge = createIdeBridge({
      ports: { start: base },
      permission: false,
      clock,
      fetch: fromPage('http://localhost:3000'),
    });
    // The IDE answers at once, so no fake time needs to pass (a jump, on a machine slow to answer, would
    // reach the "after a moment" timer while the answer is still on its way); any timer left is run after.
    await clock.drive(
      localBridge.installPlugin(ideAt(base), 'com.example.tool', {
        onAwaitingConfirmation: () => (awaited = true),
      }),
      0,
    );
    clock.advance(IDE_CONFIRMATION_TIMEOUT_MS);
    expect(awaited).toBe(false);
  });
});

describe('a search for IDEs that the IDE holds while it asks whether to trust the page', () => {
  it('rejects as awaiting confirmation, and finds the IDE once the visitor says yes', async () => {
    const simulator = await askingIde();
    const bridge = bridgeOnPage({ probeTimeoutMs: 300 });
    const updates: RunningIdesUpdate[] = [];
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    cleanups.push(async () => unsubscribe());

    const asking = await failureOf(bridge.findRunningIdes({ force: true }));
    expect(asking).toMatchObject({ kind: 'awaiting-confirmation', port: base });
    expect(asking.message).toBe(
      `The IDE on port ${base} is asking whether to trust this site. Answer it in the IDE.`,
    );
    // Looking again does not stack up requests behind the IDE's question.
    await failureOf(bridge.findRunningIdes({ force: true }));
    expect(simulator.pendingConfirmations()).toMatchObject([{ host: 'blog.example.org', waiting: 1 }]);

    const found = bridge.findRunningIdes({ waitForConfirmation: true });
    simulator.confirmPending(true);
    expect((await found).map((ide) => ide.name)).toEqual(['IntelliJ IDEA 2025.0']);
    await waitUntil(() => updates.at(-1)?.status === 'found');
    expect(updates.map((update) => update.status)).toContain('failed');
  });

  it('turns into a refusal when the visitor says no', async () => {
    const simulator = await askingIde();
    const bridge = bridgeOnPage({ probeTimeoutMs: 300 });
    expect((await failureOf(bridge.findRunningIdes())).kind).toBe('awaiting-confirmation');
    const found = bridge.findRunningIdes({ waitForConfirmation: true });
    simulator.confirmPending(false);
    expect(await failureOf(found)).toMatchObject({ kind: 'refused', status: 403, port: base });
  });
});
