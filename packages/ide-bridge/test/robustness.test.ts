import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  browserLocalNetworkPermission,
  createIdeBridge,
  IDE_BRIDGE_ERROR_KINDS,
  IdeBridgeError,
  isIdeBridgeError,
} from '../src/index';
import type { LtiLaunch } from '../src/index';
import { freePortBlock, startIdes } from './support';

let base: number;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A port that accepts connections and never answers, like a hung process. */
async function silentPort(port: number): Promise<void> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
}

describe('ports that do not answer', () => {
  it('count as failed after the probe timeout, and the scan goes on', async () => {
    await silentPort(base);
    const started = await startIdes(base, [1]);
    cleanups.push(started.close);
    // Long enough for the IDE that answers to answer on a busy machine; the silent port takes all of it.
    const bridge = createIdeBridge({ ports: { start: base }, permission: false, probeTimeoutMs: 2_000 });
    expect((await bridge.findRunningIdes()).map((ide) => ide.port)).toEqual([base + 1]);
  });

  it('turn a call into a network error naming the timeout', async () => {
    await silentPort(base);
    const bridge = createIdeBridge({ ports: { start: base }, permission: false, requestTimeoutMs: 100 });
    const ide = { name: 'GoLand 2025.2', buildNumber: 'GO-252.1', port: base };
    const error = await bridge.checkCompatibility(ide, ['a.b']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdeBridgeError);
    expect(error).toMatchObject({ kind: 'network', message: 'GoLand 2025.2 did not answer within 100 ms.' });
  });

  it('turn an install into a confirmation timeout: an IDE holds its answer while it asks its user', async () => {
    await silentPort(base);
    const bridge = createIdeBridge({ ports: { start: base }, permission: false, confirmationTimeoutMs: 300 });
    const ide = { name: 'GoLand 2025.2', buildNumber: 'GO-252.1', port: base };
    const error = await bridge.installPlugin(ide, 'a.b').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'confirmation-timeout', port: base });
  });
});

describe('an IDE that refuses the probes', () => {
  it('is reported as refused rather than as no IDE', async () => {
    const bridge = createIdeBridge({
      ports: { start: base },
      permission: false,
      fetch: (input) =>
        Promise.resolve(
          new URL(input).port === String(base)
            ? new Response('', { status: 403 })
            : Promise.reject(new TypeError()),
        ),
    });
    await expect(bridge.findRunningIdes()).rejects.toMatchObject({
      kind: 'refused',
      port: base,
      status: 403,
    });
  });
});

describe('bad input', () => {
  it('rejects a port range outside 1-65535 when the bridge is created', () => {
    expect(() => createIdeBridge({ ports: { start: 65530 } })).toThrow(RangeError);
    expect(() => createIdeBridge({ ports: { start: 0 } })).toThrow(RangeError);
    expect(() => createIdeBridge({ ports: { maxFailedPorts: 0 } })).toThrow(RangeError);
  });

  it('rejects an IDE that discovery could not have given, before any request', async () => {
    const fetchSpy = vi.fn();
    const bridge = createIdeBridge({ permission: false, fetch: fetchSpy });
    await expect(bridge.installPlugin({ name: 'x', buildNumber: 'IU-1', port: 0 }, 'a.b')).rejects.toThrow(
      TypeError,
    );
    await expect(
      bridge.checkCompatibility({ name: 'x', buildNumber: '', port: 1 }, 'a.b' as unknown as string[]),
    ).rejects.toThrow('pluginIds must be an array');
    await expect(bridge.openCourse({ name: 'x', buildNumber: 'IU-1', port: 70_000 }, 1)).rejects.toThrow(
      'The IDE must be one found by findRunningIdes()',
    );
    const ide = { name: 'x', buildNumber: 'IU-1', port: 1 };
    await expect(bridge.openLtiCourse(ide, undefined as unknown as LtiLaunch)).rejects.toThrow(
      'A course id is a positive whole number',
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('has one name for each call, with no second spelling or argument order', () => {
    expect(Object.keys(createIdeBridge({ permission: false })).sort()).toEqual([
      'checkCompatibility',
      'clearCache',
      'findRunningIdes',
      'installPlugin',
      'isCompatible',
      'localNetworkPermission',
      'openCourse',
      'openLtiCourse',
      'subscribe',
    ]);
  });
});

describe('errors', () => {
  it('carry one of the kinds a UI acts on', () => {
    expect(Object.values(IDE_BRIDGE_ERROR_KINDS).sort()).toEqual([
      'awaiting-confirmation',
      'confirmation-timeout',
      'network',
      'no-ide',
      'permission-denied',
      'rate-limited',
      'refused',
    ]);
    expect(isIdeBridgeError(new IdeBridgeError('no-ide', 'x'))).toBe(true);
    expect(isIdeBridgeError(new Error('x'))).toBe(false);
  });
});

describe('the browser permission', () => {
  const query = (answers: Record<string, PermissionState | 'throw'>) =>
    vi.fn(async ({ name }: { name: string }) => {
      const answer = answers[name];
      if (answer === undefined || answer === 'throw') throw new TypeError(`unknown permission ${name}`);
      return { state: answer };
    });

  it('reads loopback-network, then the older local-network-access name', async () => {
    vi.stubGlobal('location', { hostname: 'marketplace.example.com' });
    vi.stubGlobal('navigator', { permissions: { query: query({ 'loopback-network': 'prompt' }) } });
    expect(await browserLocalNetworkPermission()).toBe('prompt');
    vi.stubGlobal('navigator', { permissions: { query: query({ 'local-network-access': 'denied' }) } });
    expect(await browserLocalNetworkPermission()).toBe('denied');
    vi.stubGlobal('navigator', { permissions: { query: query({}) } });
    expect(await browserLocalNetworkPermission()).toBe('unsupported');
    vi.stubGlobal('navigator', {});
    expect(await browserLocalNetworkPermission()).toBe('unsupported');
  });

  it('is granted for a page served from this machine, which reaches loopback without asking', async () => {
    vi.stubGlobal('navigator', { permissions: { query: query({ 'loopback-network': 'prompt' }) } });
    for (const hostname of ['localhost', '127.0.0.1', '[::1]', 'app.localhost']) {
      vi.stubGlobal('location', { hostname });
      expect(await browserLocalNetworkPermission(), hostname).toBe('granted');
    }
  });

  it('is what localNetworkPermission() reports', async () => {
    const bridge = createIdeBridge({ permission: () => Promise.resolve('prompt') });
    expect(await bridge.localNetworkPermission()).toBe('prompt');
  });
});
