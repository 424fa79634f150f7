import { describe, expect, it } from 'vitest';
import { scanConcurrently, scanSequentially } from '../src/discovery';
import type { PortRange, ProbeResult } from '../src/discovery';

const range: PortRange = { start: 1000, maxAttempts: 10, maxFailedPorts: 2 };

/** Probes answered from a layout (bit i set: an IDE on port start+i), each after a random wait. */
function layoutProbe(layout: number, random: () => number) {
  const probed: number[] = [];
  const probe = (port: number): Promise<ProbeResult> => {
    probed.push(port);
    const index = port - range.start;
    const result: ProbeResult =
      (layout >> index) & 1
        ? { port, ide: { name: `IDE ${index}`, buildNumber: 'IU-252.1', port, productKey: undefined } }
        : { port, failure: 'closed' };
    // A random number of event-loop turns: answers arrive in any order, as they do over the network.
    const turns = Math.floor(random() * 4);
    const later = async () => {
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      return result;
    };
    return later();
  };
  return { probe, probed };
}

/** A small deterministic generator, so that a failure can be replayed. */
function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('the concurrent scan against the sequential rule', () => {
  it('gives the same answer with the same probes for every layout of 10 ports, whatever the answer order', async () => {
    const random = seededRandom(20261121);
    for (let layout = 0; layout < 1 << range.maxAttempts; layout++) {
      const sequential = layoutProbe(layout, random);
      const concurrent = layoutProbe(layout, random);
      const expected = await scanSequentially(range, sequential.probe);
      const actual = await scanConcurrently(range, concurrent.probe);
      expect(actual, `layout ${layout.toString(2)}`).toEqual(expected);
      expect([...concurrent.probed].sort(), `layout ${layout.toString(2)}`).toEqual(sequential.probed);
    }
  }, 60_000);

  it('stops after 2 failed ports in all, or after 10 ports', async () => {
    const answer = async (layout: number) =>
      (await scanSequentially(range, layoutProbe(layout, () => 0).probe)).map((result) =>
        result.ide ? 1 : 0,
      );
    expect(await answer(0)).toEqual([0, 0]);
    expect(await answer(0b101)).toEqual([1, 0, 1, 0]);
    expect(await answer(0b1001)).toEqual([1, 0, 0]);
    expect(await answer(0b1111111111)).toHaveLength(10);
  });
});
