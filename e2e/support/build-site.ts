import { buildSite } from '../site/support/site-server';

/**
 * Global set-up: builds the site once per run, as `pnpm build` does, so that every file's server hosts the code
 * under test (each file built it again before).
 */
export default function buildSiteOnce(): void {
  buildSite();
}
