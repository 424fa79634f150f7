import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import { createIdeBridge } from '../src/index';
import type { LocalNetworkPermission, RunningIdesUpdate } from '../src/index';
import { freePortBlock, startIdes, waitUntil } from './support';

let base: number;
let simulator: IdeSimulator | undefined;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
  const started = await startIdes(base, [0]);
  cleanups.push(started.close);
  simulator = started.ides[0];
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function bridgeWith(state: { permission: LocalNetworkPermission }) {
  return createIdeBridge({ ports: { start: base }, permission: () => Promise.resolve(state.permission) });
}

describe('Local Network Access', () => {
  it('does not probe while the permission would prompt, and probes after a user gesture', async () => {
    const state = { permission: 'prompt' as LocalNetworkPermission };
    const bridge = bridgeWith(state);
    const updates: RunningIdesUpdate[] = [];
    const unsubscribe = bridge.subscribe((update) => updates.push(update));
    cleanups.push(async () => unsubscribe());
    await waitUntil(() => updates.length === 1);
    expect(updates[0]).toEqual({ status: 'awaiting-gesture' });
    expect(await bridge.findRunningIdes()).toEqual([]);
    expect(simulator?.requests).toEqual([]);

    const found = await bridge.findRunningIdes({ userGesture: true });
    expect(found.map((ide) => ide.port)).toEqual([base]);
    expect(updates.at(-1)).toMatchObject({ status: 'found', ides: [{ port: base }] });
  });

  it('probes at once when the permission is granted or the browser has none', async () => {
    for (const permission of ['granted', 'unsupported'] as const) {
      expect(await bridgeWith({ permission }).findRunningIdes(), permission).toHaveLength(1);
    }
  });

  it('reports a denied permission as permission-denied when nothing answers', async () => {
    await simulator?.close();
    const bridge = bridgeWith({ permission: 'denied' });
    await expect(bridge.findRunningIdes({ userGesture: true })).rejects.toMatchObject({
      kind: 'permission-denied',
    });
  });

  it('reports permission-denied when the visitor blocks the prompt the scan brought up', async () => {
    await simulator?.close();
    const answers: LocalNetworkPermission[] = ['prompt', 'denied'];
    const bridge = createIdeBridge({
      ports: { start: base },
      permission: () =>
        Promise.resolve(answers.length > 1 ? (answers.shift() as LocalNetworkPermission) : 'denied'),
    });
    await expect(bridge.findRunningIdes({ userGesture: true })).rejects.toMatchObject({
      kind: 'permission-denied',
    });
  });

  it('still finds IDEs when the permission says denied but requests go through', async () => {
    // Chromium says 'denied' on a plain-http page served from this machine under another host name.
    const found = await bridgeWith({ permission: 'denied' }).findRunningIdes();
    expect(found.map((ide) => ide.port)).toEqual([base]);
  });

  it('calls an IDE that quit after answering no-ide, whatever the permission says', async () => {
    const state = { permission: 'denied' as LocalNetworkPermission };
    const bridge = bridgeWith(state);
    const [ide] = await bridge.findRunningIdes();
    if (!ide) throw new Error('no IDE');
    await simulator?.close();
    await expect(bridge.installPlugin(ide, 'a.b')).rejects.toMatchObject({ kind: 'no-ide' });
  });

  it('explains a failed install by a denied permission when the IDE never answered', async () => {
    await simulator?.close();
    const bridge = bridgeWith({ permission: 'denied' });
    const ide = { name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.1', port: base };
    await expect(bridge.installPlugin(ide, 'a.b')).rejects.toMatchObject({ kind: 'permission-denied' });
  });
});
