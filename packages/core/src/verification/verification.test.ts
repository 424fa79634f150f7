import { describe, expect, it } from 'vitest';
import {
  classFileMajorOfJava,
  classNameOfEntry,
  claimedTargets,
  isPlatformDependency,
  javaLevelOfBranch,
  javaLevelOfClassFile,
  PLATFORM_LIBRARIES,
  platformRelease,
  problemFingerprint,
  readClassFileVersion,
  verificationStatusOf,
} from './index';

describe('Java levels per branch', () => {
  it('runs 203-222 on Java 11, 223-241 on Java 17, 242-253 on Java 21, 261 and later on Java 25, older on 8', () => {
    expect([193, 203, 222, 223, 241, 242, 253, 261, 262].map(javaLevelOfBranch)).toEqual([
      8, 11, 11, 17, 17, 21, 21, 25, 25,
    ]);
  });

  it('maps Java levels to class-file versions and back', () => {
    expect(classFileMajorOfJava(17)).toBe(61);
    expect(classFileMajorOfJava(21)).toBe(65);
    expect(javaLevelOfClassFile(52)).toBe(8);
    expect(javaLevelOfClassFile(65)).toBe(21);
  });
});

describe('claimed targets', () => {
  it('takes the newest build of every released branch in the range', () => {
    const targets = claimedTargets('241', '243.*');
    expect(targets.map((target) => target.productBuild)).toEqual([
      'IU-241.19416.15',
      'IU-242.26775.15',
      'IU-243.28141.18',
    ]);
    expect(targets.map((target) => target.javaLevel)).toEqual([17, 21, 21]);
    expect(targets[0]?.productName).toBe('IntelliJ IDEA Ultimate');
  });

  it('checks a branch at the until bound when the branch is only partly claimed', () => {
    expect(claimedTargets('233', '241.100').map((target) => target.productBuild)).toEqual([
      'IU-233.15619.7',
      'IU-241.100',
    ]);
  });

  it('reaches every newer release when until is empty, and none for a future since', () => {
    // The released builds of 2025.1 to 2026.2, each with the Java it runs on (2026.1 moved to Java 25).
    expect(
      claimedTargets('251', null).map(
        (target) => `${target.productBuild} ${target.release} Java ${target.javaLevel}`,
      ),
    ).toEqual([
      'IU-251.29188.36 2025.1 Java 21',
      'IU-252.28539.54 2025.2 Java 21',
      'IU-253.32098.101 2025.3 Java 21',
      'IU-261.26222.65 2026.1 Java 25',
      'IU-262.10315.125 2026.2 Java 25',
    ]);
    expect(claimedTargets('299', null)).toEqual([]);
    expect(platformRelease(241)?.release).toBe('2024.1');
    expect(platformRelease(240)).toBeUndefined();
  });
});

describe('class files', () => {
  it('reads the version from the header', () => {
    expect(readClassFileVersion(Uint8Array.from([0xca, 0xfe, 0xba, 0xbe, 0, 3, 0, 65]))).toEqual({
      major: 65,
      minor: 3,
    });
  });

  it('refuses what is not a class file', () => {
    expect(readClassFileVersion(Uint8Array.from([0xca, 0xfe, 0xba]))).toBeUndefined();
    expect(readClassFileVersion(Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0, 0, 61]))).toBeUndefined();
    expect(readClassFileVersion(Uint8Array.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 12]))).toBeUndefined();
  });

  it('names the class of an entry, leaving out versioned copies and module descriptors', () => {
    expect(classNameOfEntry('com/example/Foo$Bar.class')).toBe('com.example.Foo$Bar');
    expect(classNameOfEntry('META-INF/versions/21/com/example/Foo.class')).toBeUndefined();
    expect(classNameOfEntry('module-info.class')).toBeUndefined();
    expect(classNameOfEntry('com/example/package-info.class')).toBeUndefined();
    expect(classNameOfEntry('com/example/Foo.java')).toBeUndefined();
  });
});

describe('findings', () => {
  const problem = { severity: 'problem', falsePositive: false, builds: ['IU-243.1'] } as const;
  const warning = { severity: 'warning', falsePositive: false, builds: [] } as const;

  it('sums a build up by its worst finding, leaving out false positives and other builds', () => {
    expect(verificationStatusOf([])).toBe('compatible');
    expect(verificationStatusOf([warning])).toBe('warnings');
    expect(verificationStatusOf([warning, problem])).toBe('problems');
    expect(verificationStatusOf([warning, problem], 'IU-241.1')).toBe('warnings');
    expect(verificationStatusOf([{ ...problem, falsePositive: true }])).toBe('compatible');
  });

  it('fingerprints a finding by check, kind and subject only', () => {
    expect(problemFingerprint('bytecode', 'class-file-too-new', ' lib/a.jar ')).toBe(
      'bytecode/class-file-too-new/lib/a.jar',
    );
    expect(problemFingerprint('descriptor', 'x', 'y'.repeat(1000))).toHaveLength(
      400 + 'descriptor/x/'.length,
    );
  });

  it('knows the platform modules and bundled plugins', () => {
    expect(isPlatformDependency('com.intellij.modules.platform')).toBe(true);
    expect(isPlatformDependency('com.intellij.java')).toBe(true);
    expect(isPlatformDependency('org.example.other')).toBe(false);
  });

  it('recognises bundled copies of platform libraries by file name', () => {
    const named = (file: string) => PLATFORM_LIBRARIES.find((library) => library.pattern.test(file))?.name;
    expect(named('kotlin-stdlib-1.9.22.jar')).toBe('kotlin-stdlib');
    expect(named('kotlin-stdlib-jdk8-1.9.22.jar')).toBe('kotlin-stdlib');
    expect(named('kotlinx-coroutines-core-jvm-1.8.0.jar')).toBe('kotlinx-coroutines');
    expect(named('kotlin-stdlib-helper.jar')).toBeUndefined();
    expect(named('gson-2.10.jar')).toBeUndefined();
  });
});
