import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the client in a browser bundle', () => {
  it('carries the contract only as types: no schema runtime reaches the browser', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('packages/api-client/src/client.ts'))).toBe(true);
    expect(inputs.filter((input) => /typebox|api-contract/.test(input))).toEqual([]);
  });
});
