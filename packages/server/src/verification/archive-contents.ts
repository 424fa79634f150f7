import { mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { classNameOfEntry, readClassFileVersion } from '@marketplace/core';
import type { Entry, ZipFile } from 'yauzl';
import { DESCRIPTOR_PATH, isDirectoryEntry, libraryJarPluginFolder, preview } from '../archive/entry-rules';
import { formatBytes, resolveLimits, type ArchiveLimits } from '../archive/limits';
import {
  ArchiveRejection,
  DecompressedBudget,
  entriesOf,
  openArchive,
  streamEntry,
} from '../archive/zip-stream';

/** A class file in a jar: its name (`com.example.Foo`) and class-file major version (undefined: not a class file). */
export interface ClassEntry {
  className: string;
  major: number | undefined;
}

export interface JarContents {
  /** Where the jar is: `demo/lib/demo.jar` inside a zip, or the uploaded jar's own file name. */
  name: string;
  /** The jar's file name alone (`demo.jar`), for matching library names. */
  fileName: string;
  size: number;
  classes: ClassEntry[];
}

/** What the checks read from a stored archive, gathered in one streaming pass. */
export interface ArchiveContents {
  kind: 'jar' | 'zip';
  /** META-INF/plugin.xml (undefined when the archive has none). */
  descriptor: Buffer | undefined;
  /** The other META-INF/*.xml beside plugin.xml (the config files of optional dependencies), by name. */
  descriptorFiles: Map<string, Buffer>;
  jars: JarContents[];
}

/** A class file is at most a few hundred KB; anything far larger is not one the JVM would load. */
const MAX_CLASS_BYTES = 16 * 1024 * 1024;
const META_INF_XML = /^META-INF\/[^/]+\.xml$/;

/**
 * Reads what verification needs from a plugin archive saved at `path`, with the upload pipeline's zip
 * reader (src/archive/zip-stream: size, CRC and budget checks on every byte) and its limits: entries per
 * archive and in total, bytes decompressed in total. Only class files (for their 8-byte header), plugin.xml
 * and its sibling descriptors are decompressed; jars under `<name>/lib/` of a zip are unpacked to a scratch
 * folder one at a time and removed. Nothing is ever run. Throws ArchiveRejection for an archive that breaks
 * the rules (reported as a finding by the caller).
 */
export async function readArchiveContents(
  path: string,
  options: { fileName: string; limits?: Partial<ArchiveLimits>; tempDir: string },
): Promise<ArchiveContents> {
  const limits = resolveLimits(options.limits);
  const { size } = await stat(path);
  if (size > limits.maxArchiveBytes) {
    throw new ArchiveRejection(
      `The archive is ${formatBytes(size)}; at most ${formatBytes(limits.maxArchiveBytes)} is verified.`,
    );
  }
  const budget = new DecompressedBudget(limits.maxTotalUncompressedBytes, 'The archive');
  const counter = { listed: 0, limit: limits.maxTotalEntries };
  const scratch = await mkdtemp(join(options.tempDir, 'verification-'));
  try {
    const top = await readJar(path, 'The archive', limits, budget, counter, async (zip, entry, label) => {
      const inner = libraryJarPluginFolder(entry.fileName);
      if (inner === undefined) return undefined;
      const jarPath2 = join(scratch, `nested-${counter.listed}.jar`);
      await streamEntry(zip, entry, { kind: 'file', path: jarPath2 }, budget, label);
      try {
        const jarLabel = `The jar '${preview(entry.fileName)}'`;
        return await readJar(jarPath2, jarLabel, limits, budget, counter, async () => undefined);
      } finally {
        await rm(jarPath2, { force: true });
      }
    });
    const kind = top.descriptor !== undefined ? 'jar' : 'zip';
    const jars: JarContents[] = [];
    let descriptor = top.descriptor;
    let descriptorFiles = top.descriptorFiles;
    if (kind === 'jar') {
      jars.push({ name: options.fileName, fileName: options.fileName, size, classes: top.classes });
    }
    for (const [name, nested] of top.nested) {
      jars.push({ name, fileName: basename(name), size: nested.size, classes: nested.classes });
      if (descriptor === undefined && nested.descriptor !== undefined) {
        descriptor = nested.descriptor;
        descriptorFiles = nested.descriptorFiles;
      }
    }
    return { kind, descriptor, descriptorFiles, jars };
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
}

interface JarReading {
  descriptor: Buffer | undefined;
  descriptorFiles: Map<string, Buffer>;
  classes: ClassEntry[];
  size: number;
  nested: Map<string, JarReading>;
}

async function readJar(
  path: string,
  label: string,
  limits: ArchiveLimits,
  budget: DecompressedBudget,
  counter: { listed: number; limit: number },
  openNested: (zip: ZipFile, entry: Entry, label: string) => Promise<JarReading | undefined>,
): Promise<JarReading> {
  const zip = await openArchive(path, label);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ArchiveRejection(
      `${label} has ${zip.entryCount.toLocaleString('en-US')} entries; at most ${limits.maxEntries.toLocaleString('en-US')} are verified in one archive.`,
    );
  }
  const reading: JarReading = {
    descriptor: undefined,
    descriptorFiles: new Map(),
    classes: [],
    size: (await stat(path)).size,
    nested: new Map(),
  };
  let entries = 0;
  for await (const entry of entriesOf(zip, label)) {
    entries += 1;
    counter.listed += 1;
    if (entries > limits.maxEntries || counter.listed > counter.limit) {
      throw new ArchiveRejection(`${label} lists more entries than verification reads.`);
    }
    const name = entry.fileName;
    if (isDirectoryEntry(name)) continue;
    if (name === DESCRIPTOR_PATH || META_INF_XML.test(name)) {
      const sink = { kind: 'memory', maxBytes: limits.maxDescriptorBytes } as const;
      const bytes = await streamEntry(zip, entry, sink, budget, label);
      if (bytes === undefined) continue;
      if (name === DESCRIPTOR_PATH) reading.descriptor = bytes;
      else reading.descriptorFiles.set(name.slice('META-INF/'.length), bytes);
      continue;
    }
    const className = classNameOfEntry(name);
    if (className !== undefined) {
      const bytes = await streamEntry(
        zip,
        entry,
        { kind: 'memory', maxBytes: MAX_CLASS_BYTES },
        budget,
        label,
      );
      reading.classes.push({ className, major: bytes ? readClassFileVersion(bytes)?.major : undefined });
      continue;
    }
    const nested = await openNested(zip, entry, label);
    if (nested !== undefined) reading.nested.set(name, { ...nested, size: entry.uncompressedSize });
  }
  return reading;
}
