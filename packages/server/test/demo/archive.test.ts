import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import { buildPluginArchive, generateDemoCatalogue } from '../../src/demo';

vi.setConfig({ testTimeout: 60_000 });

describe('the demo plugin archives', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mp-demo-archives-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('pass the upload inspection with the descriptor of their version row', async () => {
    const today = new Date('2026-11-21T00:00:00Z');
    const catalogue = generateDemoCatalogue({ plugins: 25, seed: 5, today });
    const vendors = new Map(catalogue.vendors.map((vendor) => [vendor.id, vendor]));
    const kinds = new Set<string>();
    for (const plugin of catalogue.plugins()) {
      const vendor = vendors.get(plugin.vendorId)!;
      for (const version of plugin.versions) {
        const path = join(directory, version.fileName);
        await writeFile(path, await buildPluginArchive(plugin, vendor, version));
        const inspection = await inspectPluginArchive(path, { tempDir: directory, now: today });
        if (!inspection.ok) throw new Error(`${version.fileName}: ${inspection.result.errors.join('; ')}`);
        kinds.add(inspection.kind);
        expect(inspection.kind).toBe(version.packaging);
        expect(inspection.descriptor).toMatchObject({
          id: plugin.xmlId,
          name: plugin.name,
          version: version.version,
          vendor: { name: vendor.name, email: vendor.email, url: vendor.url },
          description: plugin.description,
          changeNotes: version.notes,
          sinceBuild: version.sinceBuild,
          untilBuild: version.untilBuild,
          productDescriptor: version.product,
        });
        expect(version.product !== null).toBe(plugin.pricingModel !== 'FREE');
      }
    }
    expect(kinds).toEqual(new Set(['jar', 'zip']));
  });
});
