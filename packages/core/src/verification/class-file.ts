/** The first four bytes of every Java class file. */
export const CLASS_FILE_MAGIC = 0xcafebabe;

export interface ClassFileVersion {
  major: number;
  minor: number;
}

/**
 * Reads the version from the header of a class file (magic, minor, major: 8 bytes, big-endian) without
 * loading it. Undefined when the bytes are not a class file: too short, or another magic number.
 */
export function readClassFileVersion(bytes: Uint8Array): ClassFileVersion | undefined {
  if (bytes.length < 8) return undefined;
  const magic = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (magic !== CLASS_FILE_MAGIC) return undefined;
  const minor = (bytes[4]! << 8) | bytes[5]!;
  const major = (bytes[6]! << 8) | bytes[7]!;
  // 45 is JDK 1.0/1.1; anything lower was never a class file version.
  if (major < 45) return undefined;
  return { major, minor };
}

/** The class an entry holds: `com/example/Foo.class` -> `com.example.Foo`; undefined for other entries. */
export function classNameOfEntry(entryName: string): string | undefined {
  if (!entryName.endsWith('.class')) return undefined;
  // Multi-release jars keep versioned copies under META-INF/versions/N/; the IDE loads the plain one.
  if (entryName.startsWith('META-INF/')) return undefined;
  const name = entryName.slice(0, -'.class'.length);
  if (name === '' || name.endsWith('/') || name === 'module-info' || name.endsWith('/package-info')) {
    return undefined;
  }
  return name.replaceAll('/', '.');
}
