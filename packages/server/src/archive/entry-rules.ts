import { MAX_ENTRY_NAME_LENGTH } from './limits';

/**
 * Rules for the names and kinds of entries. The IDE unpacks an uploaded zip into its plugins folder, so an
 * entry that could land outside that folder (zip slip) or a symbolic link pointing anywhere on the
 * developer's machine must never reach the store.
 */

/** Returns why an entry name is unsafe, or undefined when it is fine. */
export function unsafeEntryNameReason(name: string): string | undefined {
  if (name.length === 0) return 'an entry has an empty name';
  if (name.length > MAX_ENTRY_NAME_LENGTH) {
    return `an entry name is longer than ${MAX_ENTRY_NAME_LENGTH} characters ('${preview(name)}')`;
  }
  // Control characters (NUL above all) cut names short in C libraries and hide the real path.
  if (hasControlCharacter(name)) return `the entry name '${preview(name)}' contains control characters`;
  if (name.includes('\\')) {
    return `the entry name '${preview(name)}' contains a backslash, which Windows reads as a folder separator`;
  }
  if (name.startsWith('/')) return `the entry '${preview(name)}' has an absolute path`;
  if (/^[a-zA-Z]:/.test(name)) return `the entry '${preview(name)}' starts with a drive letter`;
  if (name.split('/').includes('..'))
    return `the entry '${preview(name)}' climbs out of its folder with '..'`;
  return undefined;
}

const UNIX_FILE_TYPE_MASK = 0o170000;
const UNIX_SYMBOLIC_LINK = 0o120000;

/**
 * Unix zip tools keep the file mode in the upper 16 bits of the external attributes. The host byte of
 * "version made by" is not trusted: unzip implementations differ in which hosts they honour, so a link
 * type is refused whatever the archive says made it.
 */
export function isSymbolicLink(externalFileAttributes: number): boolean {
  const mode = (externalFileAttributes >>> 16) & UNIX_FILE_TYPE_MASK;
  return mode === UNIX_SYMBOLIC_LINK;
}

export function isDirectoryEntry(name: string): boolean {
  return name.endsWith('/');
}

const ARCHIVE_EXTENSIONS = /\.(jar|zip|war|ear)$/i;

export function isArchiveName(name: string): boolean {
  return ARCHIVE_EXTENSIONS.test(name);
}

export const DESCRIPTOR_PATH = 'META-INF/plugin.xml';

/** `<name>/lib/<file>.jar` in a plugin zip: the only nested archives the IDE loads, so the only ones opened. */
const LIBRARY_JAR = /^([^/]+)\/lib\/[^/]+\.jar$/;

export function libraryJarPluginFolder(name: string): string | undefined {
  return LIBRARY_JAR.exec(name)?.[1];
}

/** Shortens a hostile name before it is quoted in a message. */
export function preview(name: string): string {
  const printable = Array.from(name, (character) => (isControlCharacter(character) ? '?' : character)).join(
    '',
  );
  return printable.length > 120 ? `${printable.slice(0, 117)}...` : printable;
}

function isControlCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

function hasControlCharacter(text: string): boolean {
  for (const character of text) if (isControlCharacter(character)) return true;
  return false;
}
