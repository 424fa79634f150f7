import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFailures, ELEMENTS, formatSizeTable, gzipBytes, measureSdk, SIZE_LIMITS } from './sdk-size';

/** A build whose files have known gzip sizes: random bytes do not compress. */
function fakeBuild(dir: string, bytes: Record<string, number>): Record<string, number> {
  mkdirSync(join(dir, 'chunks'), { recursive: true });
  const sizes: Record<string, number> = {};
  for (const [file, length] of Object.entries(bytes)) {
    const body = randomBytes(length);
    writeFileSync(join(dir, file), body);
    sizes[file] = gzipBytes(body);
  }
  const elements = Object.fromEntries(
    ELEMENTS.map((name) => [
      name,
      name === 'mp-plugin-card'
        ? ['chunks/shared-AAAAAAAA.js', `chunks/${name}-BBBBBBBB.js`]
        : ['chunks/shared-AAAAAAAA.js', 'chunks/shared-some-CCCCCCCC.js', `chunks/${name}-BBBBBBBB.js`],
    ]),
  );
  writeFileSync(
    join(dir, 'sdk-chunks.json'),
    JSON.stringify({ elements, embedMessages: 'chunks/embed-messages-DDDDDDDD.js' }),
  );
  return sizes;
}

describe('pnpm size', () => {
  let dist: string;
  let sizes: Record<string, number>;

  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'sdk-size-'));
    sizes = fakeBuild(dist, {
      'mp-loader.js': 1000,
      'mp-widget.js': 9000,
      'chunks/shared-AAAAAAAA.js': 3000,
      'chunks/shared-some-CCCCCCCC.js': 2000,
      'chunks/embed-messages-DDDDDDDD.js': 500,
      ...Object.fromEntries(ELEMENTS.map((name) => [`chunks/${name}-BBBBBBBB.js`, 400])),
    });
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('adds up what each page downloads: loader, shared chunks, its element', () => {
    const report = measureSdk(dist);
    const byName = Object.fromEntries(report.pages.map((page) => [page.name, page]));
    const at = (file: string) => sizes[file] ?? Number.NaN;
    expect(byName['mp-plugin-card']?.bytes).toBe(
      at('mp-loader.js') + at('chunks/shared-AAAAAAAA.js') + at('chunks/mp-plugin-card-BBBBBBBB.js'),
    );
    expect(byName['mp-install-button']?.files).toEqual([
      'mp-loader.js',
      'chunks/shared-AAAAAAAA.js',
      'chunks/shared-some-CCCCCCCC.js',
      'chunks/mp-install-button-BBBBBBBB.js',
    ]);
    // All five: every file once.
    expect(byName['all five']?.files).toHaveLength(3 + ELEMENTS.length);
    expect(byName['mp-widget.js']?.bytes).toBe(at('mp-widget.js'));
    expect(byName['iframe mode']?.bytes).toBe(at('mp-loader.js') + at('chunks/embed-messages-DDDDDDDD.js'));
    expect(budgetFailures(report)).toEqual([]);
    const table = formatSizeTable(report);
    expect(table).toContain('mp-install-button');
    expect(table).toMatch(/mp-plugin-card .* 20.00 KB met/);
  });

  it('fails a page over its limit, naming it', () => {
    const report = measureSdk(dist, { ...SIZE_LIMITS, 'mp-open-course': 4000 });
    expect(budgetFailures(report)).toEqual([
      expect.stringMatching(/^mp-open-course: \d+ bytes gzip, over its limit of 4000/),
    ]);
    expect(formatSizeTable(report)).toMatch(/mp-open-course .* OVER/);
  });

  it('says how to build the SDK when there is no build', () => {
    expect(() => measureSdk(join(dist, 'nothing-here'))).toThrow(/run pnpm build/);
  });
});
