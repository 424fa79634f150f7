import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdeSimulator, IdeSimulatorOptions } from '@marketplace/ide-simulator';
import { createIdeBridge, IdeBridgeError } from '../src/index';
import type { DiscoveredIde } from '../src/index';
import { freePortBlock, startIdes } from './support';

let base: number;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function runIde(
  options: IdeSimulatorOptions = {},
): Promise<{ simulator: IdeSimulator; ide: DiscoveredIde }> {
  const started = await startIdes(base, [0], () => ({ installDurationMs: 0, ...options }));
  cleanups.push(started.close);
  const [ide] = await createIdeBridge({ ports: { start: base }, permission: false }).findRunningIdes();
  const [simulator] = started.ides;
  if (!ide || !simulator) throw new Error('the simulated IDE was not found');
  simulator.clearRequests();
  return { simulator, ide };
}

const bridge = () => createIdeBridge({ ports: { start: base }, permission: false });

async function failureOf(promise: Promise<unknown>): Promise<IdeBridgeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof IdeBridgeError)) throw new Error(`expected an IdeBridgeError, got ${String(error)}`);
  return error;
}

describe('install', () => {
  it('asks the IDE to install the plugin, and the IDE installs it', async () => {
    const { simulator, ide } = await runIde();
    await bridge().installPlugin(ide, 'com.example.tool');
    expect(simulator.requests).toEqual([
      expect.objectContaining({
        path: '/api/installPlugin',
        query: { action: 'install', pluginId: 'com.example.tool' },
        status: 200,
      }),
    ]);
    expect(simulator.installedPluginIds()).toEqual(['com.example.tool']);
  });

  it('reports a refusal (403) as refused, not as "no IDE"', async () => {
    const { ides, close } = await startIdes(base, [0], () => ({ untrustedOrigins: 'refuse' }));
    cleanups.push(close);
    const [simulator] = ides;
    if (!simulator) throw new Error('the simulated IDE did not start');
    const ide = { name: 'IntelliJ IDEA 2025.0', buildNumber: 'IU-252.23892.409', port: base };
    const error = await failureOf(bridge().installPlugin(ide, 'com.example.tool'));
    expect(error).toMatchObject({ kind: 'refused', status: 403, port: base });
    expect(error.message).toContain('idea.api.install.hosts.trusted');
    expect(simulator.installedPluginIds()).toEqual([]);
  });

  it('reports rate limiting (429) as rate-limited', async () => {
    const { ide } = await runIde({ rateLimitPerMinute: 1 });
    const sameBridge = bridge();
    await sameBridge.installPlugin(ide, 'com.example.one');
    const error = await failureOf(sameBridge.installPlugin(ide, 'com.example.two'));
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429 });
    expect(error.message).toBe(
      'IntelliJ IDEA 2025.0 received too many requests from this browser. Please try again in a minute.',
    );
  });

  it('reports an IDE that has quit as no-ide', async () => {
    const { simulator, ide } = await runIde();
    await simulator.close();
    const error = await failureOf(bridge().installPlugin(ide, 'com.example.tool'));
    expect(error.kind).toBe('no-ide');
    expect(error.message).toBe(
      'IntelliJ IDEA 2025.0 is not answering. Please make sure your IDE is still running.',
    );
  });

  it('rejects a missing plugin id before calling the IDE', async () => {
    const { simulator, ide } = await runIde();
    await expect(bridge().installPlugin(ide, '  ')).rejects.toThrow(TypeError);
    expect(simulator.requests).toEqual([]);
  });
});

describe('checkCompatibility', () => {
  it('asks for several ids in one request and leaves out the ids the IDE does not know', async () => {
    const { simulator, ide } = await runIde({ plugins: { 'a.good': true, 'a.old': false } });
    const answer = await bridge().checkCompatibility(ide, ['a.good', 'a.old', 'a.unknown']);
    expect(Object.fromEntries(answer)).toEqual({ 'a.good': true, 'a.old': false });
    expect(simulator.requests).toHaveLength(1);
    expect(JSON.parse(simulator.requests[0]?.query.pluginIds ?? '')).toEqual([
      'a.good',
      'a.old',
      'a.unknown',
    ]);
  });

  it('asks for one id with pluginId', async () => {
    const { ide } = await runIde({ plugins: { 'a.old': false } });
    expect(Object.fromEntries(await bridge().checkCompatibility(ide, ['a.old']))).toEqual({ 'a.old': false });
    expect(await bridge().isCompatible(ide, 'a.unknown')).toBe(false);
  });

  it('reports an answer that is not a compatibility answer as a network error', async () => {
    const { ide } = await runIde();
    const fake = createIdeBridge({
      ports: { start: base },
      permission: false,
      fetch: () => Promise.resolve(new Response('<html>', { status: 500 })),
    });
    expect(await failureOf(fake.checkCompatibility(ide, ['a.b']))).toMatchObject({
      kind: 'network',
      status: 500,
    });
  });
});
