import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import { createIdeBridge } from '../src/index';
import type { IdeBridgeOptions, RunningIdesUpdate } from '../src/index';
import { freePortBlock, ManualClock, startIdes, waitUntil } from './support';

let base: number;
let clock: ManualClock;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
  clock = new ManualClock();
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function runIdes(offsets: number[]): Promise<IdeSimulator[]> {
  const started = await startIdes(base, offsets, () => ({
    now: clock.now,
    plugins: { 'com.example.tool': true, 'com.example.old': false },
  }));
  cleanups.push(started.close);
  return started.ides;
}

function bridgeFor(options: IdeBridgeOptions = {}) {
  return createIdeBridge({
    ports: { start: base },
    permission: false,
    clock,
    probeTimeoutMs: 600_000,
    requestTimeoutMs: 600_000,
    ...options,
  });
}

const probes = (ide: IdeSimulator | undefined) =>
  ide?.requests.filter((request) => request.path === '/api/installPlugin' && !request.query.action).length;

describe('the IDE list cache', () => {
  it('answers from the cache for 60 s, then scans again', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    await bridge.findRunningIdes();
    clock.advance(59_999);
    expect(await bridge.findRunningIdes()).toHaveLength(1);
    expect(probes(ide)).toBe(1);
    clock.advance(1);
    await bridge.findRunningIdes();
    expect(probes(ide)).toBe(2);
  });

  it('scans again when forced, and shares one scan between callers at the same moment', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    await Promise.all([bridge.findRunningIdes(), bridge.findRunningIdes(), bridge.findRunningIdes()]);
    expect(probes(ide)).toBe(1);
    await bridge.findRunningIdes({ force: true });
    expect(probes(ide)).toBe(2);
  });

  it('forgets the list after clearCache()', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    await bridge.findRunningIdes();
    bridge.clearCache();
    await bridge.findRunningIdes();
    expect(probes(ide)).toBe(2);
  });
});

describe('the compatibility cache', () => {
  it('keeps answers for 60 s per IDE and asks only for the ids it does not know', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    const [found] = await bridge.findRunningIdes();
    if (!found) throw new Error('no IDE');
    const first = await bridge.checkCompatibility(found, [
      'com.example.tool',
      'com.example.old',
      'com.example.none',
    ]);
    expect([...first]).toEqual([
      ['com.example.tool', true],
      ['com.example.old', false],
    ]);
    clock.advance(30_000);
    expect(await bridge.isCompatible(found, 'com.example.tool')).toBe(true);
    expect(await bridge.isCompatible(found, 'com.example.none')).toBe(false);
    const checks = () => ide?.requests.filter((request) => request.query.action === 'checkCompatibility');
    expect(checks()).toHaveLength(1);
    clock.advance(30_000);
    expect(await bridge.isCompatible(found, 'com.example.tool')).toBe(true);
    expect(checks()?.at(-1)?.query).toEqual({ action: 'checkCompatibility', pluginId: 'com.example.tool' });
  });
});

describe('an install failure', () => {
  it('clears the IDE list and the compatibility answers', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    const [found] = await bridge.findRunningIdes();
    if (!found || !ide) throw new Error('no IDE');
    await bridge.checkCompatibility(found, ['com.example.tool']);
    await ide.close();
    await expect(bridge.installPlugin(found, 'com.example.tool')).rejects.toMatchObject({ kind: 'no-ide' });
    expect(await bridge.findRunningIdes()).toEqual([]);
  });
});

describe('subscribing', () => {
  it('tells the listener the IDEs at once and re-polls every 10 s while subscribed', async () => {
    const [first] = await runIdes([0]);
    const bridge = bridgeFor();
    const updates: RunningIdesUpdate[] = [];
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    // Only the next poll is waiting once the scan (and its probe timeouts) is over.
    const nextPollScheduled = () => clock.pendingDelays().join() === '10000';
    await waitUntil(() => updates.length === 1 && nextPollScheduled());
    expect(updates[0]).toMatchObject({ status: 'found', ides: [{ port: base }] });

    // Nothing changed: the listener hears nothing, but the IDE was asked again.
    clock.advance(10_000);
    await waitUntil(() => probes(first) === 2 && nextPollScheduled());
    expect(updates).toHaveLength(1);

    const [second] = await runIdes([1]);
    clock.advance(10_000);
    await waitUntil(() => updates.length === 2);
    const latest = updates[1];
    expect(latest?.status === 'found' && latest.groups.map((group) => group.name)).toEqual([
      'IntelliJ IDEA 2025.0',
      'IntelliJ IDEA 2025.1',
    ]);
    expect(probes(second)).toBe(1);

    unsubscribe();
    expect(clock.pendingDelays()).toEqual([]);
    clock.advance(60_000);
    expect(probes(first)).toBe(3);
  });

  it('looks again at once when an install fails, so that an IDE that quit leaves the list', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    const updates: RunningIdesUpdate[] = [];
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    const nextPollScheduled = () => clock.pendingDelays().join() === '10000';
    await waitUntil(() => updates.length === 1 && nextPollScheduled());
    const found = updates[0]?.status === 'found' ? updates[0].ides[0] : undefined;
    if (!found || !ide) throw new Error('no IDE');
    await ide.close();
    await expect(bridge.installPlugin(found, 'com.example.tool')).rejects.toMatchObject({ kind: 'no-ide' });
    await waitUntil(() => updates.length === 2);
    expect(updates[1]).toEqual({ status: 'found', ides: [], groups: [] });
    unsubscribe();
  });

  it('keeps telling the other listeners when one of them throws', async () => {
    await runIdes([0]);
    const bridge = bridgeFor();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const updates: RunningIdesUpdate[] = [];
    const unsubscribeBroken = bridge.subscribe(() => {
      throw new Error('broken listener');
    });
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    await bridge.findRunningIdes();
    await waitUntil(() => updates.length === 1);
    expect(logged).toHaveBeenCalledWith('IDE bridge: a running-IDE listener failed', expect.any(Error));
    logged.mockRestore();
    unsubscribeBroken();
    unsubscribe();
  });

  it('uses a fresh cached list for the first answer instead of probing again', async () => {
    const [ide] = await runIdes([0]);
    const bridge = bridgeFor();
    await bridge.findRunningIdes();
    const updates: RunningIdesUpdate[] = [];
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    await waitUntil(() => updates.length === 1);
    expect(probes(ide)).toBe(1);
    unsubscribe();
  });
});
