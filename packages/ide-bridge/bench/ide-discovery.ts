// `pnpm bench ide-discovery [runs]`: how long finding the running IDEs takes on loopback with 0, 1 and 3
// simulated IDEs, with the concurrent scan and with the sequential one (median of the runs, default 30).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createIdeBridge } from '../src/index';
import type { ScanStrategy } from '../src/index';

const runs = Number(process.argv[2] ?? 30);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('Usage: pnpm bench ide-discovery [runs >= 1]');
  process.exit(2);
}
// The simulators are fresh processes: let them (and the connection pool) warm up before measuring.
const WARM_UP_RUNS = 20;
// The IDEs run in processes of their own, as real ones do, so that their work does not share the bridge's thread.
const simulatorCommand = join(
  dirname(createRequire(import.meta.url).resolve('@marketplace/ide-simulator')),
  'cli.ts',
);

/** One simulator process on the port, as each real IDE is a process of its own. */
async function startSimulator(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', simulatorCommand, '--port', String(port), '--rate-limit', 'off', '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('is listening on')) resolve();
    });
    child.once('exit', (status) => reject(new Error(`the IDE simulator stopped (status ${status})`)));
  });
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePortBlock(size: number): Promise<number> {
  for (;;) {
    // Below Linux's ephemeral range (32768+), where outgoing connections would take ports from under us.
    const base = 20_000 + Math.floor(Math.random() * (12_000 - size));
    const checks = await Promise.all(Array.from({ length: size }, (_, index) => isPortFree(base + index)));
    if (checks.every(Boolean)) return base;
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

interface Samples {
  times: number[];
  probes: number;
  scans: number;
}

/** One discovery with a new bridge (nothing cached); adds its time to the samples unless warming up. */
async function discover(
  base: number,
  expected: number,
  scan: ScanStrategy,
  samples: Samples,
  record: boolean,
) {
  const countingFetch = (input: string, init?: RequestInit) => {
    samples.probes++;
    return fetch(input, init);
  };
  const bridge = createIdeBridge({ ports: { start: base }, permission: false, scan, fetch: countingFetch });
  const start = performance.now();
  const ides = await bridge.findRunningIdes();
  const elapsed = performance.now() - start;
  samples.scans++;
  if (ides.length !== expected) throw new Error(`found ${ides.length} IDEs, expected ${expected}`);
  if (record) samples.times.push(elapsed);
}

/** Both scans, taking turns run by run, so that the machine's ups and downs fall on both alike. */
async function measure(base: number, expected: number) {
  const samples: Record<ScanStrategy, Samples> = {
    concurrent: { times: [], probes: 0, scans: 0 },
    sequential: { times: [], probes: 0, scans: 0 },
  };
  for (let run = 0; run < WARM_UP_RUNS + runs; run++) {
    const order: ScanStrategy[] = run % 2 === 0 ? ['concurrent', 'sequential'] : ['sequential', 'concurrent'];
    for (const scan of order) await discover(base, expected, scan, samples[scan], run >= WARM_UP_RUNS);
  }
  return samples;
}

const base = await freePortBlock(12);
console.log(`IDE discovery on 127.0.0.1:${base}+, median and 90th percentile of ${runs} runs (ms)\n`);
console.log(`load average ${loadavg()[0]?.toFixed(1)} (figures are noisy when the machine is busy)\n`);
console.log('running IDEs  scan         median     p90   probes');
let noIdeMedian = Number.NaN;
for (const count of [0, 1, 3]) {
  const simulators = await Promise.all(
    Array.from({ length: count }, (_, index) => startSimulator(base + index)),
  );
  try {
    const samples = await measure(base, count);
    for (const scan of ['concurrent', 'sequential'] as const) {
      const { times, probes, scans } = samples[scan];
      times.sort((a, b) => a - b);
      const median = percentile(times, 0.5);
      const p90 = percentile(times, 0.9);
      if (count === 0 && scan === 'concurrent') noIdeMedian = median;
      console.log(
        `${String(count).padStart(12)}  ${scan.padEnd(10)} ${median.toFixed(2).padStart(8)} ${p90
          .toFixed(2)
          .padStart(7)} ${String(probes / scans).padStart(8)}`,
      );
    }
  } finally {
    await Promise.all(simulators.map(stop));
  }
}
const goalMet = noIdeMedian < 20;
console.log(
  `\nGoal, no IDE running answered in under 20 ms: ${goalMet ? 'met' : 'NOT met'} (${noIdeMedian.toFixed(2)} ms)`,
);
