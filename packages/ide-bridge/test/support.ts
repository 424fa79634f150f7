import { createServer } from 'node:net';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator, IdeSimulatorOptions } from '@marketplace/ide-simulator';
import type { Clock, FetchFunction } from '../src/index';

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A block of free loopback ports at random in 20000-32000, so that test files and real IDEs never meet. */
export async function freePortBlock(size = 12): Promise<number> {
  for (;;) {
    // Below Linux's ephemeral range (32768+), where outgoing connections would take ports from under us.
    const base = 20_000 + Math.floor(Math.random() * (12_000 - size));
    const checks = await Promise.all(Array.from({ length: size }, (_, index) => isPortFree(base + index)));
    if (checks.every(Boolean)) return base;
  }
}

/** Starts one simulated IDE on each given port offset from `base`; `close` stops them all. */
export async function startIdes(
  base: number,
  offsets: readonly number[],
  options: (offset: number) => IdeSimulatorOptions = () => ({}),
): Promise<{ ides: IdeSimulator[]; close: () => Promise<void> }> {
  const ides = await Promise.all(
    offsets.map((offset) =>
      startIdeSimulator({
        name: `IntelliJ IDEA 2025.${offset}`,
        buildNumber: 'IU-252.23892.409',
        // Node's fetch names no page, which the real IDE asks its user about: answer yes at once, unless
        // a test is about that question (see `fromPage`).
        untrustedOrigins: 'accept',
        ...options(offset),
        port: base + offset,
      }),
    ),
  );
  return { ides, close: async () => void (await Promise.all(ides.map((ide) => ide.close()))) };
}

const realDelay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A clock that moves only when told. Network I/O stays real, so `drive` lets real time pass for answers to
 * arrive and jumps the fake time to the next timer whenever the code under test waits on one.
 */
export class ManualClock implements Clock {
  private current = 1_700_000_000_000;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now = (): number => this.current;

  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + ms, callback });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** The delays of the timers waiting now, from the current time. */
  pendingDelays(): number[] {
    return [...this.timers.values()].map((timer) => timer.at - this.current).sort((a, b) => a - b);
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].callback();
    }
    this.current = target;
  }

  /**
   * Runs `promise` to its end, jumping to the next timer whenever the code waits on one. Timers further than
   * `maxJumpMs` away are never fired: give the bridge request timeouts longer than that, so that a slow
   * answer is waited for in real time instead of being cut off by a jump.
   */
  async drive<T>(promise: Promise<T>, maxJumpMs = 60_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => (settled = true));
    const realDeadline = Date.now() + 15_000;
    while (!settled) {
      await realDelay(15);
      if (settled) break;
      if (Date.now() > realDeadline) throw new Error('the promise did not settle within 15 s of real time');
      const next = this.pendingDelays().find((delay) => delay <= maxJumpMs);
      if (next !== undefined) this.advance(next);
    }
    return watched;
  }
}

/** Waits in real time for a condition that depends on loopback I/O. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await realDelay(5);
  }
}

/** A fetch that names `pageOrigin` as the calling page, as a browser on that page does. */
export function fromPage(pageOrigin: string): FetchFunction {
  return (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: pageOrigin } });
}
