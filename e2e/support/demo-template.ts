import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TEMPLATE_VARIABLE, DEMO_TOKENS_VARIABLE, startMarketplace } from './marketplace-server';

/** Passwords the demo accounts of the template's data folder have (given with `mp users set-password`). */
export const DEMO_PASSWORDS = {
  admin: 'e2e-admin-pass',
  developer: 'e2e-developer-pass',
  visitor: 'e2e-visitor-pass',
} as const;

/** The API tokens the template makes for each demo account, one per scope. */
const TOKEN_SCOPES = ['upload', 'manage'] as const;

/**
 * Global set-up: starts the marketplace once as `pnpm start` does on a fresh data folder (migrations, the
 * demo catalogue), gives the demo accounts known passwords through `mp users` and makes an upload and a
 * manage token for each with `mp tokens create` (each `mp` run takes seconds: the files used to make their
 * own, about two dozen in all), stops it, and keeps the folder. Each test file's server then starts on a copy of it: the same state a fresh start gives, without
 * paying for the migrations, the demo load and three `mp` runs again in every file (about 25 s each on two
 * cores). Returns the teardown that removes the folder. When the template's server does not stop cleanly,
 * nothing is kept and the files start their servers from nothing (slower, not wrong).
 */
export default async function prepareDemoTemplate(): Promise<() => Promise<void>> {
  const parent = await mkdtemp(join(tmpdir(), 'marketplace-e2e-template-'));
  const dataDir = join(parent, 'data');
  const marketplace = await startMarketplace({ keepDataDir: dataDir });
  let stoppedCleanly = false;
  const tokens: Record<string, string> = {};
  try {
    for (const [login, password] of Object.entries(DEMO_PASSWORDS)) {
      marketplace.mp(['users', 'set-password', '--login', login, '--password', password]);
      for (const scope of TOKEN_SCOPES) {
        tokens[`${login}:${scope}`] = marketplace
          .mp(['tokens', 'create', '--login', login, '--scope', scope])
          .trim();
      }
    }
  } finally {
    // A copy is only as good as the stop: a server killed mid-write leaves its database lock, its local
    // channel's socket and possibly a half-written database: no copy is made of a folder the server did not
    // let go of (the server stops within 10 s of SIGTERM; the grace is for a machine loaded by other work).
    stoppedCleanly = await marketplace.close(120_000);
  }
  const leftovers = (await readdir(dataDir, { recursive: true })).filter(
    (name) => name.endsWith('.lock') || name.endsWith('.sock'),
  );
  if (!stoppedCleanly || leftovers.length > 0) {
    // Not a reason to fail the run: each file's server then starts from nothing, as before the template.
    await rm(parent, { recursive: true, force: true });
    console.warn(
      `The template server did not stop cleanly (${leftovers.join(', ') || 'killed'}); no copy is made, ` +
        'and each test file starts its server on a fresh data folder.',
    );
    return async () => undefined;
  }
  process.env[DEMO_TEMPLATE_VARIABLE] = dataDir;
  process.env[DEMO_TOKENS_VARIABLE] = JSON.stringify(tokens);
  return async () => {
    delete process.env[DEMO_TEMPLATE_VARIABLE];
    delete process.env[DEMO_TOKENS_VARIABLE];
    await rm(parent, { recursive: true, force: true });
  };
}
