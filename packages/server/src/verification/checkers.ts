import {
  classFileMajorOfJava,
  isCompatibleBuild,
  isPlatformDependency,
  javaLevelOfClassFile,
  PLATFORM_CLASS_PACKAGES,
  PLATFORM_LIBRARIES,
  problemFingerprint,
  type PricingModel,
  type ProblemKind,
  type ProblemSeverity,
  type VerificationTarget,
  type VerificationType,
} from '@marketplace/core';
import type { DescriptorReading } from '../archive/descriptor';
import type { ArchiveContents, JarContents } from './archive-contents';
import { readDescriptorElements, type DescriptorElements } from './descriptor-elements';

/** One thing a check found. `builds` empty: it concerns every build checked. */
export interface Finding {
  type: VerificationType;
  kind: ProblemKind;
  severity: ProblemSeverity;
  message: string;
  /** What the finding is about (class, jar, dependency, element): with type and kind, its fingerprint. */
  subject: string;
  builds: string[];
}

export function fingerprintOf(finding: Finding): string {
  return problemFingerprint(finding.type, finding.kind, finding.subject);
}

/** The version being verified, as the catalogue has it. */
export interface VersionFacts {
  id: number;
  pluginId: number;
  pluginXmlId: string;
  pricingModel: PricingModel;
  version: string;
  channel: string;
  sinceBuild: string;
  untilBuild: string | null;
  fileHash: string;
  fileName: string;
}

/** The approved versions of a plugin of this marketplace (undefined: no such plugin). */
export type DependencyLookup = (
  xmlId: string,
) => Promise<{ since: string; until: string | null }[] | undefined>;

export interface CheckContext {
  version: VersionFacts;
  targets: readonly VerificationTarget[];
  /** undefined when the archive could not be read (a finding of the descriptor check says why). */
  archive: ArchiveContents | undefined;
  archiveError: string | undefined;
  /** Where the archive is on disk while the checks run (for external tools). */
  archivePath: string;
  descriptor: DescriptorReading | undefined;
  findDependency: DependencyLookup;
  oversizeJarBytes: number;
  /** Builds a check verified against beyond the claimed ones (the external verifier's IDEs). */
  addTargets(targets: readonly VerificationTarget[]): void;
}

/** A check of the list: built-in or external. */
export interface Checker {
  type: VerificationType;
  check(context: CheckContext): Promise<Finding[]>;
}

const everyBuild: string[] = [];

function finding(
  type: VerificationType,
  kind: ProblemKind,
  severity: ProblemSeverity,
  subject: string,
  message: string,
  builds: string[] = everyBuild,
): Finding {
  return { type, kind, severity, subject, message, builds };
}

function listed(items: readonly string[], most = 3): string {
  const shown = items.slice(0, most).map((item) => `'${item}'`);
  return items.length > most ? `${shown.join(', ')} and ${items.length - most} more` : shown.join(', ');
}

/** plugin.xml: valid, the plugin's id and version, a module dependency, the product descriptor's rules. */
export const descriptorChecker: Checker = {
  type: 'descriptor',
  async check({ version, targets, archive, archiveError, descriptor }) {
    const found: Finding[] = [];
    const problem = (kind: ProblemKind, subject: string, message: string) =>
      found.push(finding('descriptor', kind, 'problem', subject, message));
    const warning = (kind: ProblemKind, subject: string, message: string) =>
      found.push(finding('descriptor', kind, 'warning', subject, message));
    if (archiveError !== undefined) {
      problem('archive-unreadable', archiveError, `The archive could not be verified: ${archiveError}`);
      return found;
    }
    if (archive?.descriptor === undefined || descriptor === undefined) {
      problem(
        'invalid-descriptor',
        'missing',
        'The archive holds no META-INF/plugin.xml: the IDE cannot load it.',
      );
      return found;
    }
    for (const text of descriptor.warnings) warning('descriptor-warning', text, text);
    if (!descriptor.ok) {
      for (const text of descriptor.errors) problem('invalid-descriptor', text, text);
      return found;
    }
    const read = descriptor.descriptor;
    if (read.id !== version.pluginXmlId) {
      problem(
        'id-mismatch',
        read.id,
        `plugin.xml declares the id '${read.id}', but the plugin's id is '${version.pluginXmlId}'.`,
      );
    }
    if (read.version !== version.version) {
      problem(
        'version-mismatch',
        read.version,
        `plugin.xml declares version '${read.version}', but the version was published as '${version.version}'.`,
      );
    }
    if (!read.dependencies.some((dependency) => dependency.id.startsWith('com.intellij.modules.'))) {
      warning(
        'no-module-dependency',
        'modules',
        'plugin.xml declares no dependency on a platform module (<depends>com.intellij.modules.platform</depends>): the IDEs then treat it as a plugin for IntelliJ IDEA only.',
      );
    }
    if (targets.length === 0) {
      const range = `${version.sinceBuild}${version.untilBuild ? ` to ${version.untilBuild}` : ' and later'}`;
      warning(
        'no-released-build',
        'range',
        `No released IDE build is known in the range the version claims (${range}), so nothing could be checked against an IDE.`,
      );
    }
    const product = read.productDescriptor;
    if (version.pricingModel !== 'FREE' && product === null) {
      problem(
        'product-descriptor',
        'missing',
        `The plugin is ${version.pricingModel === 'PAID' ? 'paid' : 'freemium'}, but plugin.xml declares no <product-descriptor>: the IDE cannot check its licence.`,
      );
    } else if (version.pricingModel === 'FREEMIUM' && product !== null && !product.optional) {
      warning(
        'product-descriptor',
        'not-optional',
        'The plugin is freemium, but its <product-descriptor> does not say optional="true": the IDE will ask for a licence before any feature works.',
      );
    } else if (version.pricingModel === 'FREE' && product !== null && !product.optional) {
      warning(
        'product-descriptor',
        'free-but-paid',
        `The plugin is free here, but plugin.xml declares the paid product '${product.code}': the IDE will ask people for a licence.`,
      );
    }
    return found;
  },
};

/** Every required `<depends>` exists here (or in the IDE) with a version for each claimed build. */
export const dependenciesChecker: Checker = {
  type: 'dependencies',
  async check({ version, targets, descriptor, findDependency }) {
    if (!descriptor?.ok) return [];
    const found: Finding[] = [];
    const seen = new Set<string>();
    for (const dependency of descriptor.descriptor.dependencies) {
      if (seen.has(dependency.id) || isPlatformDependency(dependency.id)) continue;
      if (dependency.id === version.pluginXmlId) continue;
      seen.add(dependency.id);
      const severity: ProblemSeverity = dependency.optional ? 'warning' : 'problem';
      const what = dependency.optional ? 'optional dependency' : 'dependency';
      const versions = await findDependency(dependency.id);
      if (versions === undefined) {
        found.push(
          finding(
            'dependencies',
            'missing-dependency',
            severity,
            dependency.id,
            `The ${what} '${dependency.id}' is neither a plugin of this marketplace nor part of the IDE: ${dependency.optional ? 'the features that need it stay off' : 'the IDE will not load the plugin'}.`,
          ),
        );
        continue;
      }
      const without = targets
        .filter(
          (target) =>
            !versions.some((candidate) =>
              isCompatibleBuild(target.productBuild, candidate.since, candidate.until),
            ),
        )
        .map((target) => target.productBuild);
      if (without.length > 0) {
        found.push(
          finding(
            'dependencies',
            'incompatible-dependency',
            severity,
            dependency.id,
            `The ${what} '${dependency.id}' has no approved version compatible with ${listed(without, 4)}.`,
            without,
          ),
        );
      }
    }
    return found;
  },
};

/** Class files newer than the Java each claimed IDE runs on: the IDE cannot load them. */
export const bytecodeChecker: Checker = {
  type: 'bytecode',
  async check({ targets, archive }) {
    if (archive === undefined) return [];
    const found: Finding[] = [];
    for (const jar of archive.jars) {
      const byMajor = new Map<number, string[]>();
      let invalid = 0;
      for (const entry of jar.classes) {
        if (entry.major === undefined) {
          invalid += 1;
          continue;
        }
        const names = byMajor.get(entry.major) ?? [];
        names.push(entry.className);
        byMajor.set(entry.major, names);
      }
      if (invalid > 0) {
        found.push(
          finding(
            'bytecode',
            'invalid-class-file',
            'warning',
            jar.name,
            `${invalid} .class ${invalid === 1 ? 'entry' : 'entries'} in '${jar.name}' ${invalid === 1 ? 'is' : 'are'} not a class file the JVM can load.`,
          ),
        );
      }
      for (const [major, names] of [...byMajor].sort(([a], [b]) => b - a)) {
        const failing = targets.filter((target) => classFileMajorOfJava(target.javaLevel) < major);
        if (failing.length === 0) continue;
        const levels = [...new Set(failing.map((target) => target.javaLevel))].sort((a, b) => a - b);
        found.push(
          finding(
            'bytecode',
            'class-file-too-new',
            'problem',
            `${jar.fileName}:${major}`,
            `${names.length} ${names.length === 1 ? 'class' : 'classes'} in '${jar.name}' (${listed(names, 2)}) ${names.length === 1 ? 'is' : 'are'} compiled for Java ${javaLevelOfClassFile(major)} (class file version ${major}), but ${listed(
              failing.map((target) => target.productBuild),
              4,
            )} ${failing.length === 1 ? 'runs' : 'run'} on Java ${levels.join(' and ')} and cannot load ${names.length === 1 ? 'it' : 'them'}.`,
            failing.map((target) => target.productBuild),
          ),
        );
      }
    }
    return found;
  },
};

const RESTART = 'The plugin cannot be installed, updated or removed without restarting the IDE';

/** Declarations that keep the IDE from loading and unloading the plugin without a restart. */
export const dynamicLoadingChecker: Checker = {
  type: 'dynamic-loading',
  async check({ archive, descriptor }) {
    if (archive?.descriptor === undefined || !descriptor?.ok) return [];
    const documents: [string, DescriptorElements | undefined][] = [
      ['plugin.xml', readDescriptorElements(archive.descriptor)],
    ];
    // Config files of optional dependencies are merged into the descriptor when the dependency is present.
    for (const dependency of descriptor.descriptor.dependencies) {
      const file = dependency.configFile;
      const bytes = file === null ? undefined : archive.descriptorFiles.get(file);
      if (file !== null && bytes !== undefined) documents.push([file, readDescriptorElements(bytes)]);
    }
    const found: Finding[] = [];
    for (const [file, elements] of documents) {
      if (elements === undefined) continue;
      for (const element of elements.components) {
        found.push(
          finding(
            'dynamic-loading',
            'components',
            'warning',
            `${file}:${element}`,
            `${RESTART}: ${file} declares <${element}>; components are deprecated, use services and listeners instead.`,
          ),
        );
      }
      for (const point of elements.nonDynamicExtensionPoints) {
        found.push(
          finding(
            'dynamic-loading',
            'non-dynamic-extension-point',
            'warning',
            point,
            `${RESTART}: the extension point '${point}' (${file}) is not declared dynamic="true".`,
          ),
        );
      }
      if (elements.requireRestart) {
        found.push(
          finding(
            'dynamic-loading',
            'require-restart',
            'warning',
            file,
            `${RESTART}: ${file} says require-restart="true".`,
          ),
        );
      }
    }
    return found;
  },
};

/** Bundled copies of what the IDE provides, the same class in two jars, very large jars. */
export const archiveHygieneChecker: Checker = {
  type: 'archive-hygiene',
  async check({ archive, oversizeJarBytes }) {
    if (archive === undefined) return [];
    const found: Finding[] = [];
    for (const jar of archive.jars) {
      const library = PLATFORM_LIBRARIES.find((candidate) => candidate.pattern.test(jar.fileName));
      if (library !== undefined) {
        found.push(
          finding(
            'archive-hygiene',
            'bundled-platform-library',
            'warning',
            library.name,
            `'${jar.name}' is a copy of ${library.name}, which the IDE already provides: two copies of the same classes can clash at run time. Leave it out of the plugin (compileOnly).`,
          ),
        );
      } else {
        for (const { name, classes } of platformClassesIn(jar)) {
          found.push(
            finding(
              'archive-hygiene',
              'bundled-platform-classes',
              'warning',
              `${jar.fileName}:${name}`,
              `'${jar.name}' carries ${classes.length} ${classes.length === 1 ? 'class' : 'classes'} of ${name} (${listed(classes, 2)}), which the IDE already provides: they can clash with the IDE's own.`,
            ),
          );
        }
      }
      if (jar.size > oversizeJarBytes) {
        found.push(
          finding(
            'archive-hygiene',
            'oversize-jar',
            'warning',
            jar.fileName,
            `'${jar.name}' is ${(jar.size / (1024 * 1024)).toFixed(1)} MB, more than the ${Math.round(oversizeJarBytes / (1024 * 1024))} MB a plugin jar is expected to be: check that it bundles nothing the IDE has.`,
          ),
        );
      }
    }
    found.push(...duplicateClasses(archive.jars));
    return found;
  },
};

function platformClassesIn(jar: JarContents): { name: string; classes: string[] }[] {
  const byPackage = new Map<string, string[]>();
  for (const entry of jar.classes) {
    const match = PLATFORM_CLASS_PACKAGES.find((candidate) => entry.className.startsWith(candidate.prefix));
    if (match === undefined) continue;
    const classes = byPackage.get(match.name) ?? [];
    classes.push(entry.className);
    byPackage.set(match.name, classes);
  }
  return [...byPackage].map(([name, classes]) => ({ name, classes }));
}

/** One finding per pair of jars that share classes: only one copy is ever loaded, which one is chance. */
function duplicateClasses(jars: readonly JarContents[]): Finding[] {
  const owner = new Map<string, string>();
  const shared = new Map<string, { jars: [string, string]; classes: string[] }>();
  for (const jar of jars) {
    for (const entry of jar.classes) {
      const first = owner.get(entry.className);
      if (first === undefined) {
        owner.set(entry.className, jar.name);
        continue;
      }
      if (first === jar.name) continue;
      const key = `${first}\n${jar.name}`;
      const pair = shared.get(key) ?? { jars: [first, jar.name], classes: [] };
      pair.classes.push(entry.className);
      shared.set(key, pair);
    }
  }
  return [...shared.values()].map(({ jars: [first, second], classes }) =>
    finding(
      'archive-hygiene',
      'duplicate-classes',
      'warning',
      `${baseName(first)}|${baseName(second)}`,
      `${classes.length} ${classes.length === 1 ? 'class is' : 'classes are'} in both '${first}' and '${second}' (${listed(classes, 2)}): only one copy is loaded, and which one is left to chance.`,
    ),
  );
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The built-in checks, in the order their findings are listed. */
export const BUILT_IN_CHECKERS: readonly Checker[] = Object.freeze([
  descriptorChecker,
  dependenciesChecker,
  bytecodeChecker,
  dynamicLoadingChecker,
  archiveHygieneChecker,
]);
