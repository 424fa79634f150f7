import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { DEMO_PASSWORDS } from '../../support/demo-template';
import { startMarketplace } from '../../support/marketplace-server';
import { repositoryRoot } from '../../support/paths';

const serverDir = join(repositoryRoot, 'packages/server');
const siteDir = join(repositoryRoot, 'site');
const binPath = [
  join(serverDir, 'node_modules/.bin'),
  join(repositoryRoot, 'node_modules/.bin'),
  process.env.PATH,
].join(delimiter);

/** Builds the site as `pnpm build` does, so the server hosts the code under test. */
export function buildSite(): void {
  const result = spawnSync('vite', ['build', '--logLevel', 'warn'], {
    cwd: siteDir,
    encoding: 'utf8',
    // Test runners set NODE_ENV=test, which would bundle React's development build.
    env: { ...process.env, PATH: binPath, NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(
      `The site build failed: ${result.error?.message ?? ''}\n${result.stdout}\n${result.stderr}`,
    );
}

export interface SiteServer {
  origin: string;
  /** Passwords given to the demo accounts admin, developer and visitor. */
  passwords: Record<'admin' | 'developer' | 'visitor', string>;
  /** A permanent API token of a demo account: the data template's (made with `mp tokens create`) or a new one. */
  createToken(login: string, scope: 'upload' | 'manage'): string;
  close(): Promise<void>;
}

/**
 * Starts the server as `pnpm start` does (e2e/support's startMarketplace: a free port, a fresh data folder, the
 * demo catalogue) with the demo accounts' passwords known (DEMO_PASSWORDS, set through the `mp users` command).
 */
export async function startSiteServer(): Promise<SiteServer> {
  const marketplace = await startMarketplace();
  try {
    const passwords = { ...DEMO_PASSWORDS };
    // A copy of the global set-up's template has them already.
    if (!marketplace.fromTemplate) {
      for (const [login, password] of Object.entries(passwords)) {
        marketplace.mp(['users', 'set-password', '--login', login, '--password', password]);
      }
    }
    // The template's tokens where the folder is a copy of it; a new one through `mp` otherwise.
    const createToken = (login: string, scope: 'upload' | 'manage') =>
      marketplace.templateToken(login, scope) ??
      marketplace.mp(['tokens', 'create', '--login', login, '--scope', scope]).trim();
    const close = async () => {
      await marketplace.close();
    };
    return { origin: marketplace.origin, passwords, createToken, close };
  } catch (error) {
    await marketplace.close();
    throw error;
  }
}
