import type { ScannedEntry } from './archive-walk';
import type { ScanFinding } from './findings';

/*
 * Native binaries and scripts, and where a plugin may keep them.
 *
 * The IDE installs a plugin zip as `<plugin>/lib/*.jar` (its class path), and plugins that run native code
 * keep it beside: `<plugin>/lib/**` (libraries loaded with System.load, often per platform) and
 * `<plugin>/bin/**` (helper executables and the scripts that start them). Inside a jar (the uploaded jar, or
 * any archive in the upload) JNI libraries travel as class-path resources under any folder
 * (`com/sun/jna/linux-x86-64/libjnidispatch.so`), so a native *library* with a library's file name is
 * expected there. Everything else is reported:
 * - a native binary dressed as another kind of file (an ELF named `logo.png`, a DLL named `Foo.class`):
 *   high, the usual disguise of a dropper;
 * - a native binary anywhere else (the zip's top, `<plugin>/native/`, an executable inside a jar): medium;
 * - a script (`.sh`, `.bat`, `.cmd`, `.ps1`, ... or a file starting with `#!`) outside `<plugin>/bin/` of a
 *   zip: medium; inside a jar, low (project templates and run configurations carry scripts as resources).
 * Binaries are recognised by their bytes (ELF, PE, Mach-O and universal Mach-O headers), never by their name.
 */

export interface NativeBinary {
  format: 'ELF' | 'PE' | 'Mach-O';
  role: 'executable' | 'library' | 'object';
  description: string;
}

/** Recognises a native binary by its header, or answers undefined. */
export function nativeBinaryOf(content: Buffer): NativeBinary | undefined {
  if (content.length >= 20 && content.readUInt32BE(0) === 0x7f454c46) {
    const littleEndian = content[5] === 1;
    const type = littleEndian ? content.readUInt16LE(16) : content.readUInt16BE(16);
    if (type === 2) return { format: 'ELF', role: 'executable', description: 'an ELF executable (Linux)' };
    if (type === 3) return { format: 'ELF', role: 'library', description: 'an ELF shared library (Linux)' };
    if (type === 1) return { format: 'ELF', role: 'object', description: 'an ELF object file (Linux)' };
    return { format: 'ELF', role: 'object', description: 'an ELF binary (Linux)' };
  }
  if (content.length >= 64 && content[0] === 0x4d && content[1] === 0x5a) {
    const header = content.readUInt32LE(0x3c);
    if (header + 24 <= content.length && content.readUInt32BE(header) === 0x50450000) {
      const characteristics = content.readUInt16LE(header + 22);
      return (characteristics & 0x2000) !== 0
        ? { format: 'PE', role: 'library', description: 'a Windows DLL' }
        : { format: 'PE', role: 'executable', description: 'a Windows executable' };
    }
    return undefined;
  }
  if (content.length >= 16) {
    const magic = content.readUInt32BE(0);
    const bigEndian = magic === 0xfeedface || magic === 0xfeedfacf;
    const littleEndian = magic === 0xcefaedfe || magic === 0xcffaedfe;
    if (bigEndian || littleEndian) {
      const type = bigEndian ? content.readUInt32BE(12) : content.readUInt32LE(12);
      if (type === 2)
        return { format: 'Mach-O', role: 'executable', description: 'a Mach-O executable (macOS)' };
      if (type === 6 || type === 8) {
        return { format: 'Mach-O', role: 'library', description: 'a Mach-O library (macOS)' };
      }
      return { format: 'Mach-O', role: 'object', description: 'a Mach-O binary (macOS)' };
    }
    // A universal binary starts as a class file does (0xCAFEBABE); the next word counts its architectures
    // (a handful), where a class file has its version (45 and more). The rule of file(1).
    if (
      (magic === 0xcafebabe || magic === 0xcafebabf) &&
      content.readUInt32BE(4) > 0 &&
      content.readUInt32BE(4) < 30
    ) {
      return { format: 'Mach-O', role: 'library', description: 'a universal Mach-O binary (macOS)' };
    }
  }
  return undefined;
}

/** File names of native libraries as JNI loaders and System.load expect them. */
const NATIVE_LIBRARY_NAME = /\.(so(\.\d+)*|dylib|jnilib|dll)$/i;

/** Names of files that are never native code: a binary under such a name is disguised. */
const NOT_NATIVE_NAME =
  /\.(class|txt|md|html?|css|js|json|xml|properties|ya?ml|svg|png|gif|jpe?g|ico|bmp|webp|kt|java|groovy|form|ftl|vm|mf|sf|csv|tsv)$/i;

const SCRIPT_NAME = /\.(sh|bash|zsh|ksh|csh|command|bat|cmd|ps1|psm1|vbs|vbe|wsf)$/i;

/** `<plugin>/<folder>/...` of a plugin zip: the folder under the plugin's own, or undefined at the top. */
function zipFolder(name: string): string | undefined {
  const segments = name.split('/');
  return segments.length >= 3 ? segments[1] : undefined;
}

function fileName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** The native-binary and script findings of one entry (none for most). */
export function placementFindings(entry: ScannedEntry): ScanFinding[] {
  if (entry.isArchive) return [];
  const native = nativeBinaryOf(entry.content);
  const name = fileName(entry.name);
  if (native) {
    if (NOT_NATIVE_NAME.test(name)) {
      return [
        {
          kind: 'native-binary',
          severity: 'high',
          path: entry.path,
          message: `This is ${native.description} named as if it were another kind of file (${name}); native code disguised this way is how droppers hide.`,
        },
      ];
    }
    const expected = entry.inClassPath
      ? native.role === 'library' && NATIVE_LIBRARY_NAME.test(name)
      : zipFolder(entry.name) === 'lib' || zipFolder(entry.name) === 'bin';
    if (expected) return [];
    return [
      {
        kind: 'native-binary',
        severity: 'medium',
        path: entry.path,
        message: entry.inClassPath
          ? `This is ${native.description} inside a jar, where only native libraries named as such (.so, .dylib, .dll) are expected; check what it is for.`
          : `This is ${native.description} outside the plugin's lib/ and bin/ folders, where a plugin keeps native code; check what it is for.`,
      },
    ];
  }
  const shebang = entry.content.length >= 2 && entry.content[0] === 0x23 && entry.content[1] === 0x21;
  if (!SCRIPT_NAME.test(name) && !shebang) return [];
  if (!entry.inClassPath && zipFolder(entry.name) === 'bin') return [];
  const what = SCRIPT_NAME.test(name)
    ? `a ${name.slice(name.lastIndexOf('.') + 1)} script`
    : 'a script (it starts with #!)';
  return [
    entry.inClassPath
      ? {
          kind: 'script',
          severity: 'low',
          path: entry.path,
          message: `This is ${what} carried inside a jar; harmless as a template, but check that the plugin does not run it.`,
        }
      : {
          kind: 'script',
          severity: 'medium',
          path: entry.path,
          message: `This is ${what} outside the plugin's bin/ folder, where a plugin keeps the scripts it runs; check what it is for.`,
        },
  ];
}
