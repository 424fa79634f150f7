import { describe, expect, it } from 'vitest';
import {
  isArchiveName,
  isSymbolicLink,
  libraryJarPluginFolder,
  preview,
  unsafeEntryNameReason,
} from './entry-rules';

describe('unsafeEntryNameReason', () => {
  it.each(['META-INF/plugin.xml', 'rainbow/lib/rainbow.jar', 'a/b/', 'dots..in..name.txt', '.hidden/..a'])(
    'accepts %s',
    (name) => {
      expect(unsafeEntryNameReason(name)).toBeUndefined();
    },
  );

  it.each([
    ['', 'an entry has an empty name'],
    ['../x', "the entry '../x' climbs out of its folder with '..'"],
    ['a/../../x', "the entry 'a/../../x' climbs out of its folder with '..'"],
    ['a/..', "the entry 'a/..' climbs out of its folder with '..'"],
    ['/etc/passwd', "the entry '/etc/passwd' has an absolute path"],
    ['c:evil', "the entry 'c:evil' starts with a drive letter"],
    ['a\\b', "the entry name 'a\\b' contains a backslash, which Windows reads as a folder separator"],
    ['a\u0000.txt', "the entry name 'a?.txt' contains control characters"],
    ['x'.repeat(1025), 'an entry name is longer than 1024 characters'],
  ])('refuses %j', (name, reason) => {
    expect(unsafeEntryNameReason(name)).toContain(reason);
  });
});

describe('entry kinds', () => {
  it('tells symbolic links by their Unix mode', () => {
    expect(isSymbolicLink(0o120777 * 0x10000)).toBe(true);
    expect(isSymbolicLink(0o100644 * 0x10000)).toBe(false);
    expect(isSymbolicLink(0o040755 * 0x10000)).toBe(false);
    expect(isSymbolicLink(0x10)).toBe(false); // MS-DOS directory attribute, no Unix mode
  });

  it('finds the plugin folder of library jars only', () => {
    expect(libraryJarPluginFolder('rainbow/lib/rainbow.jar')).toBe('rainbow');
    expect(libraryJarPluginFolder('rainbow/lib/modules/part.jar')).toBeUndefined();
    expect(libraryJarPluginFolder('rainbow/rainbow.jar')).toBeUndefined();
    expect(libraryJarPluginFolder('lib/rainbow.jar')).toBeUndefined();
    expect(libraryJarPluginFolder('rainbow/lib/readme.txt')).toBeUndefined();
  });

  it('recognises nested archives by extension', () => {
    expect(['a.jar', 'b.ZIP', 'c.war', 'd.ear'].every(isArchiveName)).toBe(true);
    expect(isArchiveName('a.jar.txt')).toBe(false);
  });

  it('shortens and cleans names quoted in messages', () => {
    expect(preview('a\nb')).toBe('a?b');
    expect(preview('x'.repeat(500))).toHaveLength(120);
  });
});
