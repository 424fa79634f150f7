import { join } from 'node:path';
import { buildSite } from '../site/support/site-server';
import { builtAfter } from './newest-source';
import { repositoryRoot } from './paths';

const siteDir = join(repositoryRoot, 'site');

/** What the site's build is made of: its own files and the sources of every package it bundles. */
const SITE_SOURCES = [
  ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((name) => join(siteDir, name)),
  ...['core', 'protocol', 'ide-bridge', 'ui', 'api-client', 'api-contract'].map((name) =>
    join(repositoryRoot, 'packages', name, 'src'),
  ),
];

/** The build's outputs: the browser's page and manifest and the server's render. */
const SITE_OUTPUTS = ['index.html', '.vite/manifest.json', 'server/entry-server.js'].map((name) =>
  join(siteDir, 'dist', name),
);

/**
 * Global set-up: builds the site once per run, as `pnpm build` does, so that every file's server hosts the code
 * under test (each file built it again before), unless a build newer than every source is there already
 * (`pnpm test` builds before the browser tests, so that the fault suite beside them serves the same build).
 */
export default function buildSiteOnce(): void {
  if (builtAfter(SITE_OUTPUTS, SITE_SOURCES)) return;
  buildSite();
}
