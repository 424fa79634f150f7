import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import type { ArchiveInspection } from '../../src/archive';
import { archiveBytes, pluginJarContent, pluginXml, withScratch } from './plugin-fixtures';
import { deflatedEntry, storedEntry, writeZip } from './zip-writer';

const NOW = new Date('2026-11-21T00:00:00Z');
/** Each property runs hundreds of inspections; generous on a busy machine, still catching a hang. */
const PROPERTY_TIMEOUT_MS = 120_000;

/** Every outcome must be a descriptor, or errors worded for the uploader; never an escaped exception. */
function expectClearOutcome(inspection: ArchiveInspection): void {
  if (inspection.ok) {
    expect(inspection.descriptor.id).not.toBe('');
    return;
  }
  expect(inspection.result.isErrorUnknown).toBe(false);
  expect(inspection.result.errors.length).toBeGreaterThan(0);
  for (const error of inspection.result.errors) expect(error.length).toBeGreaterThan(10);
}

async function inspectBytes(folder: string, bytes: Uint8Array): Promise<ArchiveInspection> {
  const path = join(folder, 'upload.bin');
  await writeFile(path, bytes);
  return inspectPluginArchive(path, { now: NOW, tempDir: folder });
}

describe('inspectPluginArchive never throws', () => {
  it(
    'on random bytes',
    async () => {
      await withScratch(async (folder) => {
        await fc.assert(
          fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
            const inspection = await inspectBytes(folder, bytes);
            expect(inspection.ok).toBe(false);
            expectClearOutcome(inspection);
          }),
          { numRuns: 300 },
        );
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'on valid plugin jars and zips with random bytes overwritten or cut off',
    async () => {
      const jar = await archiveBytes(pluginJarContent());
      const zip = writeZip([storedEntry('rainbow/lib/rainbow.jar', jar)]);
      await withScratch(async (folder) => {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(jar, zip),
            fc.array(fc.record({ position: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), {
              maxLength: 8,
            }),
            fc.option(fc.nat()),
            async (original, changes, cut) => {
              const bytes = Buffer.from(original);
              for (const { position, value } of changes) bytes[position % bytes.length] = value;
              expectClearOutcome(
                await inspectBytes(folder, cut === null ? bytes : bytes.subarray(0, cut % bytes.length)),
              );
            },
          ),
          { numRuns: 400 },
        );
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'on random entry names, attributes and declared sizes',
    async () => {
      await withScratch(async (folder) => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                name: fc.oneof(
                  fc.string({ minLength: 1 }),
                  fc.constantFrom('META-INF/plugin.xml', 'a/lib/a.jar', '../x', 'x/'),
                ),
                content: fc.uint8Array({ maxLength: 64 }),
                attributes: fc.nat(),
                declaredSize: fc.option(fc.nat({ max: 1000 })),
                deflate: fc.boolean(),
              }),
              { maxLength: 6 },
            ),
            async (entries) => {
              const raw = entries.map(({ name, content, attributes, declaredSize, deflate }) => {
                const overrides = {
                  externalAttributes: attributes,
                  ...(declaredSize === null ? {} : { uncompressedSize: declaredSize }),
                };
                return deflate
                  ? deflatedEntry(name, Buffer.from(content), overrides)
                  : storedEntry(name, Buffer.from(content), overrides);
              });
              expectClearOutcome(await inspectBytes(folder, writeZip(raw)));
            },
          ),
          { numRuns: 300 },
        );
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'on random plugin.xml text',
    async () => {
      const xmlish = fc.stringMatching(
        /^(<[a-z-]{1,12}( [a-z-]{1,8}="[^"<]{0,10}")?\/?>|<\/[a-z-]{1,12}>|<!\[CDATA\[|\]\]>|&[a-z#0-9]{1,6};|<!--|-->|<\?xml |[^<&]{0,12})*$/,
      );
      await withScratch(async (folder) => {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(fc.string({ maxLength: 300 }), xmlish, fc.uint8Array({ maxLength: 300 })),
            async (text) => {
              const jar = writeZip([
                deflatedEntry('META-INF/plugin.xml', typeof text === 'string' ? text : Buffer.from(text)),
              ]);
              const inspection = await inspectBytes(folder, jar);
              expect(inspection.ok).toBe(false);
              expectClearOutcome(inspection);
            },
          ),
          { numRuns: 400 },
        );
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'on random values in the fields of a real plugin.xml, keeping each accepted value exactly',
    async () => {
      const text = fc
        .string({ maxLength: 40 })
        .filter((value) => !/[<&]/.test(value) && !value.includes(']]>'));
      const word = fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/);
      const branch = fc.integer({ min: 100, max: 320 }).map(String);
      const build = fc.tuple(branch, fc.nat({ max: 99999 })).map(([major, minor]) => `${major}.${minor}`);
      let accepted = 0;
      await withScratch(async (folder) => {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(text, word),
            fc.oneof(text, word),
            fc.oneof(text, word),
            fc.oneof(text, branch, build),
            fc.oneof(
              text,
              fc.constant(''),
              branch.map((value) => `${value}.*`),
              build,
            ),
            async (id, name, version, since, until) => {
              const xml = pluginXml({
                id: `<id>${id}</id>`,
                name: `<name><![CDATA[${name}]]></name>`,
                version: `<version>${version}</version>`,
                ideaVersion: `<idea-version since-build="${since.replace(/"/g, '&quot;')}" until-build="${until.replace(/"/g, '&quot;')}"/>`,
              });
              const inspection = await inspectBytes(
                folder,
                writeZip([deflatedEntry('META-INF/plugin.xml', xml)]),
              );
              expectClearOutcome(inspection);
              if (inspection.ok) {
                expect(inspection.descriptor.id).toBe(id.trim());
                expect(inspection.descriptor.name).toBe(name.trim());
                expect(inspection.descriptor.version).toBe(version.trim());
                expect(inspection.descriptor.sinceBuild).toBe(since.trim());
                accepted += 1;
              }
            },
          ),
          { numRuns: 300 },
        );
      });
      // The generators are built so that a fair share of the descriptors are valid and get compared.
      expect(accepted).toBeGreaterThan(10);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
