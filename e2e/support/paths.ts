import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
export const sdkDist = join(repositoryRoot, 'packages/elements/dist');
export const examplesDir = join(repositoryRoot, 'examples');

/** The SDK files the tests and the benchmark load. */
export const SDK_BUNDLE = join(sdkDist, 'mp-widget.js');
export const SDK_LOADER = join(sdkDist, 'mp-loader.js');
/** The split build's list of each element's chunks (rollup.config.mjs), relative to sdkDist. */
export const SDK_CHUNK_MANIFEST = join(sdkDist, 'sdk-chunks.json');
