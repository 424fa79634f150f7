import { runCli } from './run';

// The entry of `pnpm mp ...`: everything testable lives in run.ts.
const exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = exitCode;
