import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_CHECKERS, type DependencyLookup, type Finding } from '../../src/verification/checkers';
import { checkArchive } from '../../src/verification/worker';
import { writeFile } from 'node:fs/promises';
import {
  archiveBytes,
  pluginXml,
  withScratch,
  writeArchive,
  type ArchiveContent,
} from '../archive/plugin-fixtures';
import {
  classFile,
  compiledClass,
  pluginJarContent,
  pluginZipContent,
  versionFacts,
} from './verification-fixtures';
import type { VersionFacts } from '../../src/verification/checkers';

const noDependencies: DependencyLookup = async () => undefined;

async function check(
  content: ArchiveContent,
  options: {
    fileName?: string;
    version?: Partial<VersionFacts>;
    findDependency?: DependencyLookup;
    limits?: { maxEntries?: number };
    oversizeJarBytes?: number;
  } = {},
) {
  return withScratch(async (folder) => {
    const fileName = options.fileName ?? 'rainbow-2.1.0.jar';
    const archivePath = await writeArchive(join(folder, fileName), content);
    return checkArchive({
      archivePath,
      version: versionFacts({ fileName, ...options.version }),
      checkers: BUILT_IN_CHECKERS,
      findDependency: options.findDependency ?? noDependencies,
      oversizeJarBytes: options.oversizeJarBytes ?? 50 * 1024 * 1024,
      tempDir: folder,
      ...(options.limits ? { archiveLimits: options.limits } : {}),
    });
  });
}

const kinds = (findings: readonly Finding[]) =>
  findings.map((finding) => `${finding.severity} ${finding.kind}`);

describe('the built-in checks', () => {
  it('find nothing in a clean plugin, and check the newest build of each claimed branch', async () => {
    const { targets, findings } = await check(pluginJarContent(pluginXml(), [61, 52]));
    expect(findings).toEqual([]);
    expect(targets.map((target) => `${target.productBuild} Java ${target.javaLevel}`)).toEqual([
      'IU-241.19416.15 Java 17',
      'IU-242.26775.15 Java 21',
      'IU-243.28141.18 Java 21',
    ]);
  });

  it('bytecode: class files of Java 21 fail on the branches that run Java 17, and only there', async () => {
    const { findings } = await check(pluginJarContent(pluginXml(), [61, 65, 65]));
    expect(kinds(findings)).toEqual(['problem class-file-too-new']);
    const [finding] = findings;
    expect(finding?.type).toBe('bytecode');
    expect(finding?.builds).toEqual(['IU-241.19416.15']);
    expect(finding?.message).toContain('2 classes');
    expect(finding?.message).toContain('Java 21 (class file version 65)');
    expect(finding?.message).toContain('Java 17');
  });

  it('bytecode: reads real class files compiled by javac, in jars inside the zip’s lib/', async () => {
    // The JDK here is 17: its class files (61) cannot load in 213-222 (Java 11); 223 is the first on Java 17.
    const java17 = await compiledClass('Modern', 17);
    const java11 = await compiledClass('Steady', 11);
    const xml = pluginXml({ ideaVersion: '<idea-version since-build="213" until-build="222.*"/>' });
    const content = await pluginZipContent(
      xml,
      { 'modern.jar': { 'org/modern/Modern.class': java17, 'org/modern/Steady.class': java11 } },
      [55],
    );
    const { findings } = await check(content, {
      fileName: 'rainbow-2.1.0.zip',
      version: { sinceBuild: '213', untilBuild: '222.*' },
    });
    expect(kinds(findings)).toEqual(['problem class-file-too-new']);
    expect(findings[0]?.builds).toEqual(['IU-213.7172.25', 'IU-221.6008.13', 'IU-222.4554.10']);
    expect(findings[0]?.message).toContain('Java 17 (class file version 61)');
    expect(findings[0]?.message).toContain("'rainbow/lib/modern.jar'");
    expect(findings[0]?.message).toContain('org.modern.Modern');
    expect(findings[0]?.message).not.toContain('Steady');
  }, 60_000);

  it('bytecode: something named .class that is not a class file is a warning', async () => {
    const content = pluginJarContent(pluginXml());
    content['com/example/rainbow/Broken.class'] = Buffer.from('not a class');
    const { findings } = await check(content);
    expect(kinds(findings)).toEqual(['warning invalid-class-file']);
  });

  it('dependencies: a missing required plugin is a problem, a missing optional one a warning', async () => {
    const xml = pluginXml({
      depends: [
        '<depends>com.intellij.modules.platform</depends>',
        '<depends>com.intellij.java</depends>',
        '<depends>org.example.missing</depends>',
        '<depends optional="true" config-file="withOptional.xml">org.example.optional</depends>',
      ].join('\n'),
    });
    const { findings } = await check(pluginJarContent(xml));
    expect(kinds(findings)).toEqual(['problem missing-dependency', 'warning missing-dependency']);
    expect(findings.map((finding) => finding.subject)).toEqual([
      'org.example.missing',
      'org.example.optional',
    ]);
  });

  it('dependencies: a plugin here without a version for some claimed builds fails on those builds', async () => {
    const xml = pluginXml({
      depends: '<depends>com.intellij.modules.platform</depends>\n<depends>org.example.older</depends>',
    });
    const versions: Record<string, { since: string; until: string | null }[]> = {
      'org.example.older': [{ since: '233', until: '242.*' }],
    };
    const { findings } = await check(pluginJarContent(xml), {
      findDependency: async (id) => versions[id],
    });
    expect(kinds(findings)).toEqual(['problem incompatible-dependency']);
    expect(findings[0]?.builds).toEqual(['IU-243.28141.18']);
  });

  it('dynamic loading: components, non-dynamic extension points and require-restart, in config files too', async () => {
    const xml = pluginXml({
      depends: [
        '<depends>com.intellij.modules.platform</depends>',
        '<depends optional="true" config-file="withJava.xml">com.intellij.java</depends>',
      ].join('\n'),
      changeNotes: [
        '<application-components><component><implementation-class>a.B</implementation-class></component></application-components>',
        '<extensionPoints>',
        '  <extensionPoint name="fixed" interface="a.Fixed"/>',
        '  <extensionPoint qualifiedName="com.example.live" interface="a.Live" dynamic="true"/>',
        '</extensionPoints>',
      ].join('\n'),
    }).replace('<idea-plugin>', '<idea-plugin require-restart="true">');
    const content = pluginJarContent(xml);
    content['META-INF/withJava.xml'] =
      '<idea-plugin><project-components><component><implementation-class>a.C</implementation-class></component></project-components></idea-plugin>';
    const { findings } = await check(content);
    expect(kinds(findings)).toEqual([
      'warning components',
      'warning non-dynamic-extension-point',
      'warning require-restart',
      'warning components',
    ]);
    expect(findings.every((finding) => finding.type === 'dynamic-loading')).toBe(true);
    expect(findings[1]?.message).toContain("'fixed'");
    expect(findings[3]?.message).toContain('withJava.xml declares <project-components>');
  });

  it('archive hygiene: a bundled kotlin-stdlib is reported once, by name', async () => {
    const content = await pluginZipContent(pluginXml(), {
      'kotlin-stdlib-1.9.22.jar': { 'kotlin/Unit.class': classFile(52), 'kotlin/Pair.class': classFile(52) },
      'gson-2.10.jar': { 'com/google/gson/Gson.class': classFile(52) },
    });
    const { findings } = await check(content, { fileName: 'rainbow-2.1.0.zip' });
    expect(kinds(findings)).toEqual(['warning bundled-platform-library']);
    expect(findings[0]?.message).toContain(
      "'rainbow/lib/kotlin-stdlib-1.9.22.jar' is a copy of kotlin-stdlib",
    );
  });

  it('archive hygiene: shaded platform classes, duplicate classes across jars and oversize jars', async () => {
    const content = await pluginZipContent(pluginXml(), {
      'shaded.jar': { 'kotlin/collections/CollectionsKt.class': classFile(52) },
      'first.jar': { 'org/shared/Util.class': classFile(52), 'org/first/Only.class': classFile(52) },
      'second.jar': { 'org/shared/Util.class': classFile(52) },
    });
    const { findings } = await check(content, { fileName: 'rainbow-2.1.0.zip', oversizeJarBytes: 1 });
    expect(kinds(findings).sort()).toEqual(
      [
        'warning bundled-platform-classes',
        'warning duplicate-classes',
        'warning oversize-jar',
        'warning oversize-jar',
        'warning oversize-jar',
        'warning oversize-jar',
      ].sort(),
    );
    const duplicate = findings.find((finding) => finding.kind === 'duplicate-classes');
    expect(duplicate?.message).toContain("'rainbow/lib/first.jar' and 'rainbow/lib/second.jar'");
    expect(duplicate?.message).toContain('org.shared.Util');
  });

  it('descriptor: the plugin’s id, a platform module, the product descriptor of a paid plugin', async () => {
    const xml = pluginXml({
      id: '<id>com.example.other</id>',
      depends: '<depends>com.intellij.java</depends>',
    });
    const { findings } = await check(pluginJarContent(xml), { version: { pricingModel: 'PAID' } });
    expect(kinds(findings)).toEqual([
      'problem id-mismatch',
      'warning no-module-dependency',
      'problem product-descriptor',
    ]);
  });

  it('descriptor: an invalid plugin.xml is a problem with the upload pipeline’s own message', async () => {
    const xml = pluginXml({ ideaVersion: '<idea-version since-build="241" until-build="231.*"/>' });
    const { findings } = await check(pluginJarContent(xml));
    expect(kinds(findings)).toEqual(['problem invalid-descriptor']);
    expect(findings[0]?.message).toContain("until-build '231.*' is older than since-build '241'");
  });

  it('descriptor: a range that reaches no released build is a warning; nothing is checked against builds', async () => {
    const { targets, findings } = await check(pluginJarContent(pluginXml(), [69]), {
      version: { sinceBuild: '299', untilBuild: null },
    });
    expect(targets).toEqual([]);
    expect(kinds(findings)).toEqual(['warning no-released-build']);
  });

  it('archive safety: an archive over the entry limit is reported, not read', async () => {
    const content = pluginJarContent(pluginXml(), [61, 61, 61, 61]);
    const { findings } = await check(content, { limits: { maxEntries: 3 } });
    expect(kinds(findings)).toEqual(['problem archive-unreadable']);
    expect(findings[0]?.message).toContain('at most 3 are verified');
  });

  it('archive safety: a damaged archive is reported, not thrown', async () => {
    const jar = await archiveBytes(pluginJarContent(pluginXml()));
    const { findings } = await withScratch(async (folder) => {
      const archivePath = join(folder, 'cut.jar');
      await writeFile(archivePath, jar.subarray(0, jar.length - 30));
      return checkArchive({
        archivePath,
        version: versionFacts(),
        checkers: BUILT_IN_CHECKERS,
        findDependency: noDependencies,
        oversizeJarBytes: 1024 * 1024,
        tempDir: folder,
      });
    });
    expect(kinds(findings)).toEqual(['problem archive-unreadable']);
  });
});
