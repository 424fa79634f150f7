/**
 * What verification finds and how results are summed up. A checker reports findings; each is a problem
 * (the version fails on the builds it names) or a warning (it works, with a caveat), and concerns the
 * builds it lists, or every verified build when it lists none.
 */

/** The checks, by the name the API calls `verificationType`. */
export const VERIFICATION_TYPES = [
  'descriptor',
  'dependencies',
  'bytecode',
  'dynamic-loading',
  'archive-hygiene',
  'plugin-verifier',
] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

export function isVerificationType(value: unknown): value is VerificationType {
  return typeof value === 'string' && (VERIFICATION_TYPES as readonly string[]).includes(value);
}

export const VERIFICATION_TYPE_LABELS: Readonly<Record<VerificationType, string>> = Object.freeze({
  descriptor: 'Plugin descriptor',
  dependencies: 'Dependencies',
  bytecode: 'Bytecode level',
  'dynamic-loading': 'Installation without restart',
  'archive-hygiene': 'Archive contents',
  'plugin-verifier': 'IntelliJ Plugin Verifier',
});

export const PROBLEM_SEVERITIES = ['problem', 'warning'] as const;
export type ProblemSeverity = (typeof PROBLEM_SEVERITIES)[number];

/** The result of a version on one build, or overall: the worst finding that is not a false positive. */
export const VERIFICATION_STATUSES = ['compatible', 'warnings', 'problems'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_STATUS_LABELS: Readonly<Record<VerificationStatus, string>> = Object.freeze({
  compatible: 'Compatible',
  warnings: 'Compatible with warnings',
  problems: 'Problems',
});

/** The kinds of findings of the built-in checks (the external verifier's keep its own problem types). */
export const PROBLEM_KINDS = [
  'invalid-descriptor',
  'descriptor-warning',
  'id-mismatch',
  'version-mismatch',
  'no-module-dependency',
  'no-released-build',
  'product-descriptor',
  'missing-dependency',
  'incompatible-dependency',
  'class-file-too-new',
  'invalid-class-file',
  'archive-unreadable',
  'components',
  'non-dynamic-extension-point',
  'require-restart',
  'bundled-platform-library',
  'bundled-platform-classes',
  'duplicate-classes',
  'oversize-jar',
  'verifier-problem',
  'verifier-warning',
  'verifier-failed',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export interface SeverityCounted {
  severity: ProblemSeverity;
  /** Marked a false positive by the item's people or an administrator: it counts for nothing. */
  falsePositive: boolean;
  /** The builds it concerns; empty: every build. */
  builds: readonly string[];
}

/** The status of one build (or, with `build` undefined, of the whole version) from its findings. */
export function verificationStatusOf(
  findings: readonly SeverityCounted[],
  build?: string,
): VerificationStatus {
  let status: VerificationStatus = 'compatible';
  for (const finding of findings) {
    if (finding.falsePositive) continue;
    if (build !== undefined && finding.builds.length > 0 && !finding.builds.includes(build)) continue;
    if (finding.severity === 'problem') return 'problems';
    status = 'warnings';
  }
  return status;
}

/** Longest subject kept in a fingerprint: enough for a class or jar name, bounded for the index. */
const MAX_SUBJECT_LENGTH = 400;

/**
 * What makes two findings "the same" across versions and builds, so that a false positive marked once
 * stays marked: the check, the kind and the subject (the class, jar, dependency or element concerned),
 * never the build or the version, which change with every upload.
 */
export function problemFingerprint(type: VerificationType, kind: string, subject: string): string {
  return `${type}/${kind}/${subject.trim().slice(0, MAX_SUBJECT_LENGTH)}`;
}

/**
 * Ids a plugin may depend on that the IDE itself provides: the platform's modules (`com.intellij.modules.*`)
 * and plugins bundled with the IDEs. They need no plugin of this marketplace.
 */
export const PLATFORM_PLUGIN_IDS: ReadonlySet<string> = new Set([
  'com.intellij',
  'com.intellij.java',
  'com.intellij.java-i18n',
  'com.intellij.properties',
  'com.intellij.css',
  'com.intellij.database',
  'com.intellij.spring',
  'com.intellij.gradle',
  'com.intellij.copyright',
  'com.intellij.platform.images',
  'com.intellij.plugins.html.instantEditing',
  'org.jetbrains.kotlin',
  'org.jetbrains.plugins.yaml',
  'org.jetbrains.plugins.gradle',
  'org.jetbrains.idea.maven',
  'org.jetbrains.plugins.terminal',
  'org.intellij.plugins.markdown',
  'org.intellij.groovy',
  'org.toml.lang',
  'JavaScript',
  'Git4Idea',
  'Pythonid',
  'PythonCore',
  'org.jetbrains.plugins.go',
  'com.jetbrains.php',
  'com.jetbrains.sh',
  'tanvd.grazi',
  'XPathView',
  'TestNG-J',
  'JUnit',
]);

export function isPlatformDependency(id: string): boolean {
  return id.startsWith('com.intellij.modules.') || PLATFORM_PLUGIN_IDS.has(id);
}

/**
 * Libraries the IDE already carries: a plugin that bundles its own copy loads two versions of the same
 * classes (class-loader conflicts, `LinkageError`s, a larger download). Matched against jar file names.
 */
export const PLATFORM_LIBRARIES: readonly { name: string; pattern: RegExp }[] = Object.freeze([
  { name: 'kotlin-stdlib', pattern: /^kotlin-stdlib(-jdk[78]|-common)?(-\d[\w.-]*)?\.jar$/i },
  { name: 'kotlin-reflect', pattern: /^kotlin-reflect(-\d[\w.-]*)?\.jar$/i },
  { name: 'kotlinx-coroutines', pattern: /^kotlinx-coroutines-(core|jdk8|swing)(-jvm)?(-\d[\w.-]*)?\.jar$/i },
  {
    name: 'the IDE’s own jars',
    pattern: /^(idea|openapi|platform-api|platform-impl|app|util|util-8|lib)\.jar$/i,
  },
]);

/** Packages of the IDE's own classes and the Kotlin runtime: a plugin's jars must not carry copies. */
export const PLATFORM_CLASS_PACKAGES: readonly { name: string; prefix: string }[] = Object.freeze([
  { name: 'the Kotlin standard library', prefix: 'kotlin.' },
  { name: 'the Kotlin coroutines library', prefix: 'kotlinx.coroutines.' },
  { name: 'the IntelliJ Platform', prefix: 'com.intellij.openapi.' },
  { name: 'the IntelliJ Platform', prefix: 'com.intellij.psi.' },
]);
