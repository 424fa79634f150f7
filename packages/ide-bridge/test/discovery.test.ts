import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdeBridge, IdeBridgeError } from '../src/index';
import type { IdeBridgeOptions } from '../src/index';
import { freePortBlock, startIdes } from './support';

let base: number;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function runIdes(offsets: number[], options?: Parameters<typeof startIdes>[2]) {
  const started = await startIdes(base, offsets, options);
  cleanups.push(started.close);
  return started.ides;
}

function bridgeFor(options: IdeBridgeOptions = {}) {
  return createIdeBridge({ ports: { start: base }, permission: false, ...options });
}

describe('finding running IDEs', () => {
  it('finds none when no IDE runs, after probing only the first two ports', async () => {
    const requested: string[] = [];
    const bridge = bridgeFor({
      fetch: (input, init) => {
        requested.push(input);
        return fetch(input, init);
      },
    });
    expect(await bridge.findRunningIdes()).toEqual([]);
    expect(requested.sort()).toEqual([
      `http://127.0.0.1:${base}/api/installPlugin`,
      `http://127.0.0.1:${base + 1}/api/installPlugin`,
    ]);
  });

  it('finds one IDE with its name, build number, port and product', async () => {
    await runIdes([0], () => ({ name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.410' }));
    const [ide, ...others] = await bridgeFor().findRunningIdes();
    expect(others).toEqual([]);
    expect(ide).toMatchObject({ name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.410', port: base });
    expect(ide?.productKey).toBe('PYCHARM');
  });

  it('finds three IDEs on consecutive ports, in port order', async () => {
    await runIdes([0, 1, 2], (offset) => ({
      buildNumber: ['IU-252.1', 'GO-252.2', 'WS-252.3'][offset],
    }));
    const ides = await bridgeFor().findRunningIdes();
    expect(ides.map((ide) => [ide.port - base, ide.productKey])).toEqual([
      [0, 'IDEA'],
      [1, 'GOLAND'],
      [2, 'WEBSTORM'],
    ]);
  });

  it('leaves the product out for a product code the catalogue does not know', async () => {
    await runIdes([0], () => ({ buildNumber: 'ZZ-252.1' }));
    const [ide] = await bridgeFor().findRunningIdes();
    expect(ide?.buildNumber).toBe('ZZ-252.1');
    expect(ide?.productKey).toBeUndefined();
  });

  it('asks every probe to go to the loopback address space (Local Network Access)', async () => {
    const inits: RequestInit[] = [];
    await bridgeFor({
      fetch: (input, init) => {
        inits.push(init ?? {});
        return fetch(input, init);
      },
    }).findRunningIdes();
    expect(inits.length).toBeGreaterThan(0);
    for (const init of inits) expect(init).toMatchObject({ targetAddressSpace: 'loopback', method: 'GET' });
  });

  it('counts a port where something else answers as a failed port', async () => {
    const other = createServer((_request, response) => response.writeHead(404).end('not here'));
    await new Promise<void>((resolve) => other.listen(base + 1, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => other.close(() => resolve())));
    await runIdes([0, 3]);
    expect((await bridgeFor().findRunningIdes()).map((ide) => ide.port)).toEqual([base]);
  });
});

describe('the stop rule: 2 failed ports or 10 attempts', () => {
  it('steps over a gap of one port', async () => {
    await runIdes([0, 2]);
    expect((await bridgeFor().findRunningIdes()).map((ide) => ide.port - base)).toEqual([0, 2]);
  });

  it('stops at a gap of two ports, without probing the IDE beyond it', async () => {
    const [, beyond] = await runIdes([0, 3]);
    expect((await bridgeFor().findRunningIdes()).map((ide) => ide.port - base)).toEqual([0]);
    expect(beyond?.requests).toEqual([]);
  });

  it('counts failures over the whole scan, not in a row: two gaps of one stop it', async () => {
    const [, , beyond] = await runIdes([0, 2, 4]);
    expect((await bridgeFor().findRunningIdes()).map((ide) => ide.port - base)).toEqual([0, 2]);
    expect(beyond?.requests).toEqual([]);
  });

  it('stops after 10 attempts even when every port has an IDE', async () => {
    const ides = await runIdes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await bridgeFor().findRunningIdes()).toHaveLength(10);
    expect(ides[10]?.requests).toEqual([]);
  });
});

describe('the concurrent scan', () => {
  const layouts = [[], [0], [1], [0, 1, 2], [0, 2], [0, 3], [1, 2], [0, 2, 4], [0, 1, 3, 4, 6], [0, 1, 2, 3]];

  it.each(layouts.map((layout) => [layout.join(',') || 'none', layout]))(
    'gives what the sequential scan gives, with the same probes (IDEs at %s)',
    async (_name, layout) => {
      const ides = await runIdes(layout as number[], () => ({
        rateLimitPerMinute: Number.POSITIVE_INFINITY,
      }));
      const sequential = await bridgeFor({ scan: 'sequential' }).findRunningIdes();
      const probesAfterSequential = ides.map((ide) => ide.requests.length);
      const concurrent = await bridgeFor({ scan: 'concurrent' }).findRunningIdes();
      expect(concurrent).toEqual(sequential);
      expect(ides.map((ide) => ide.requests.length)).toEqual(probesAfterSequential.map((count) => count * 2));
    },
  );

  it('probes the first two ports together when nothing is running', async () => {
    const started: number[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    await bridgeFor({
      fetch: async (input, init) => {
        started.push(Number(new URL(input).port) - base);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await fetch(input, init);
        } finally {
          inFlight--;
        }
      },
    }).findRunningIdes();
    expect(started.sort()).toEqual([0, 1]);
    expect(mostInFlight).toBe(2);
  });
});

describe('answers that explain an empty list', () => {
  it('reports rate limiting when an IDE answered 429 and none was found', async () => {
    const [limited] = await runIdes([0], () => ({ rateLimitPerMinute: 1 }));
    const bridge = bridgeFor();
    expect(await bridge.findRunningIdes()).toHaveLength(1);
    const error = await bridge.findRunningIdes({ force: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdeBridgeError);
    expect(error).toMatchObject({ kind: 'rate-limited', port: base, status: 429 });
    expect(limited?.requests.map((request) => request.status)).toEqual([200, 429]);
  });
});

describe('grouping for the dropdown', () => {
  it('groups IDEs by name in the order found', async () => {
    const { groupIdesByName } = await import('../src/index');
    await runIdes([0, 1, 2], (offset) => ({
      name: offset === 1 ? 'PyCharm 2025.2' : 'IntelliJ IDEA 2025.2',
    }));
    const groups = groupIdesByName(await bridgeFor().findRunningIdes());
    expect(groups.map((group) => [group.name, group.ides.map((ide) => ide.port - base)])).toEqual([
      ['IntelliJ IDEA 2025.2', [0, 2]],
      ['PyCharm 2025.2', [1]],
    ]);
  });
});
