// `pnpm test`: every check, phase by phase, each phase's time printed at the end.
//
// Lint and typecheck run side by side (each is mostly one process, and nothing else competes with them then);
// the unit and database tests run next on both cores, then the site and the SDK are built (`pnpm build`),
// then the browser tests, which start a server, an IDE simulator and Chromium per file and so run one file at
// a time. A failed phase stops the run there.
//
// `pnpm test --faults` (what .ci/run runs) also runs the fault suite's short profile (`pnpm test:faults`)
// beside the browser tests: most of its six minutes are a soak at a few requests a second and servers being
// killed and restarted, which leave room on two cores that the browser tests, one file at a time, do not use.
//
// With PHASE_TIMES_FILE set (.ci/run does), each phase also appends a line "<seconds>\t<name>" there, and the
// Vitest runs append every test file's time to TEST_TIMES_FILE (tooling/summary-reporter.ts), so that .ci/run
// can print one summary of the whole run at its very end.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const withFaults = process.argv.slice(2).includes('--faults');

/** Groups run one after another; the phases of a group run side by side. */
const PHASES = [
  [
    { name: 'lint', script: 'lint' },
    { name: 'typecheck', script: 'typecheck' },
  ],
  [{ name: 'unit and database tests', script: 'test:unit' }],
  // The site and the widget SDK, once: the browser tests' set-up finds them newer than their sources, and the
  // fault suite beside them serves the same files (a build under way would empty them for its server).
  [{ name: 'build (pnpm build)', script: 'build' }],
  [
    { name: 'browser tests', script: 'test:browser' },
    ...(withFaults ? [{ name: 'fault suite (short profile)', script: 'test:faults' }] : []),
  ],
];

/**
 * Runs `pnpm run <script>`. The first phase of a group prints as it goes; the others keep their output, which
 * is printed once the whole group has ended, so that phases side by side are not interleaved line by line.
 * @param {{ name: string, script: string }} phase
 * @param {boolean} live whether it prints as it goes
 * @returns {Promise<{ name: string, seconds: number, ok: boolean, code: number | string | null, output: string }>}
 */
function runPhase({ name, script }, live) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', script], {
      shell: process.platform === 'win32',
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!live) output = `\n----- ${name} (pnpm ${script}) -----\n${output}`;
      if (process.env.PHASE_TIMES_FILE) appendFileSync(process.env.PHASE_TIMES_FILE, `${seconds}\t${name}\n`);
      resolve({ name, seconds, ok: code === 0, code: code ?? signal, output });
    });
  });
}

const results = [];
for (const group of PHASES) {
  const finished = await Promise.all(group.map((phase, index) => runPhase(phase, index === 0)));
  for (const { output } of finished) process.stdout.write(output);
  results.push(...finished);
  if (finished.some((result) => !result.ok)) break;
}

console.log('\nPhases of pnpm test:');
for (const result of results) {
  console.log(
    `${String(result.seconds).padStart(6)} s  ${result.name}${result.ok ? '' : ` (failed: ${result.code})`}`,
  );
}
process.exit(results.every((result) => result.ok) && results.length === PHASES.flat().length ? 0 : 1);
