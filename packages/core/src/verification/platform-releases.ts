import { compareBuildNumbers, isCompatibleBuild, parseBuildNumber, parseUntilBuild } from '../build-number';
import { IDE_PRODUCTS, productFullName } from '../products';

/**
 * One release branch of the IntelliJ Platform: the newest build of it this table knows, and the Java the IDEs
 * of that branch run on (and so the newest class files they load). Verification checks a version against
 * the newest build of every branch it claims, as the vendor's verifier checks against released IDEs.
 */
export interface PlatformRelease {
  branch: number;
  /** The marketing version, 2024.1 for 241. */
  release: string;
  /** The newest build of the branch known here, without a product code. */
  newestBuild: string;
  /** The Java runtime the IDEs of the branch ship with (JBR). */
  javaLevel: number;
}

/**
 * The released branches verification checks against, oldest first. Extend it as IDEs are released: a
 * branch beyond the newest one here is reported as "no released build known" instead of being checked.
 *
 * Where the builds of 251 and later come from (IntelliJ IDEA Ultimate unless said otherwise; JetBrains'
 * own list is "Previous IntelliJ IDEA Releases" on jetbrains.com, which the search corpora do not hold, so
 * each is the About text or Plugin Verifier output of that release quoted in public repositories):
 * - 251.29188.36: 2025.1.7.1, a Plugin Verifier log "WindowAccent:1.0.4 against IU-251.29188.36" and a
 *   table "IDEA 2025.1.7.1 | 251.29188.36 | 21".
 * - 252.28539.54: 2025.2.6.2, "intellijIdea("2025.2.6.2"), which resolved to IU-252.28539.54" (the
 *   IntelliJ Platform Gradle Plugin resolving the release from JetBrains' product releases).
 * - 253.32098.101: 2025.3.4.1, "tested on 2025.3.4.1 build #IU-253.32098.101"; earlier 2025.3.2 is
 *   IU-253.30387.90 (`idea --version`) and 2025.3 IU-253.28294.334.
 * - 261.26222.65: 2026.1.4, an IDE log line "IntelliJ IDEA 2026.1.4  Build #IU-261.26222.65"; 2026.1 is
 *   IU-261.22158.277.
 * - 262.10315.125: 2026.2.2, "IntelliJ IDEA 2026.2.2, Build #IU-262.10315.125" (several reports); 2026.2
 *   is IU-262.8665.258 and 2026.2.1 IU-262.9437.185.
 * Later builds of these branches exist without a release name in those sources (IU-253.33813.55,
 * IU-261.27258.48, IU-262.10968.63) and 263 only as an unnamed build (263.5701.42): left out until confirmed.
 */
export const PLATFORM_RELEASES: readonly PlatformRelease[] = Object.freeze(
  (
    [
      [203, '2020.3', '203.8084.24'],
      [211, '2021.1', '211.7628.21'],
      [212, '2021.2', '212.5712.43'],
      [213, '2021.3', '213.7172.25'],
      [221, '2022.1', '221.6008.13'],
      [222, '2022.2', '222.4554.10'],
      [223, '2022.3', '223.8836.41'],
      [231, '2023.1', '231.9423.9'],
      [232, '2023.2', '232.10335.12'],
      [233, '2023.3', '233.15619.7'],
      [241, '2024.1', '241.19416.15'],
      [242, '2024.2', '242.26775.15'],
      [243, '2024.3', '243.28141.18'],
      [251, '2025.1', '251.29188.36'],
      [252, '2025.2', '252.28539.54'],
      [253, '2025.3', '253.32098.101'],
      [261, '2026.1', '261.26222.65'],
      [262, '2026.2', '262.10315.125'],
    ] as const
  ).map(([branch, release, newestBuild]) =>
    Object.freeze({ branch, release, newestBuild, javaLevel: javaLevelOfBranch(branch) }),
  ),
);

/**
 * The Java an IDE branch runs on, so the newest class files it loads: 203 to 222 Java 11, 223 to 241
 * Java 17, 242 to 253 Java 21, 261 and later Java 25; older branches Java 8.
 *
 * Up to 252 this is the "Platform Versions" table of the IntelliJ Platform SDK documentation
 * (JetBrains/intellij-sdk-docs, topics/basics/getting_started/build_number_ranges.md: 2022.3 is the first
 * on Java 17, 2024.2 the first on Java 21). 253 runs on JBR 21 (2025.3.1.1 About: "Runtime version:
 * 21.0.9"); 261 on JBR 25 (2026.1 About: "Runtime version: 25.0.2", 2026.1.3: "25.0.3"); 262 on Java 25 as
 * well (a plugin's compatibility table: "IU build 262.* | JBR/Java 25"). Branches after 262 are assumed to
 * stay on Java 25 until known otherwise.
 */
export function javaLevelOfBranch(branch: number): number {
  if (branch >= 261) return 25;
  if (branch >= 242) return 21;
  if (branch >= 223) return 17;
  if (branch >= 203) return 11;
  return 8;
}

/** Class files of Java N carry major version N + 44 (Java 8: 52, 11: 55, 17: 61, 21: 65, 25: 69). */
export const CLASS_FILE_VERSION_OFFSET = 44;

export function classFileMajorOfJava(javaLevel: number): number {
  return javaLevel + CLASS_FILE_VERSION_OFFSET;
}

/** The Java a class file needs: 65 -> 21; versions before Java 1.2 (45) read as 1. */
export function javaLevelOfClassFile(major: number): number {
  return Math.max(1, major - CLASS_FILE_VERSION_OFFSET);
}

/** The product whose builds stand for the platform in results: IntelliJ IDEA Ultimate (`IU-...`). */
export const VERIFICATION_PRODUCT = IDE_PRODUCTS.IDEA;

/** A product build a version is verified against. */
export interface VerificationTarget {
  /** `IU-241.19416.15`. */
  productBuild: string;
  productName: string;
  branch: number;
  release: string;
  javaLevel: number;
}

/**
 * The builds a version claims, one per released branch its since/until range reaches: the newest build of
 * the branch when the range includes it, else the newest of its bounds that falls in the branch (an
 * `until-build="241.1"` is checked at 241.1). Oldest first; empty when the range reaches no known release.
 */
export function claimedTargets(since: string, until: string | null): VerificationTarget[] {
  const targets: VerificationTarget[] = [];
  for (const release of PLATFORM_RELEASES) {
    const candidates = [release.newestBuild];
    for (const bound of [until === null ? undefined : parseUntilBuild(until), parseBuildNumber(since)]) {
      if (bound === undefined || bound.components[0] !== release.branch) continue;
      if (bound.components.some((component) => component === Number.MAX_SAFE_INTEGER)) continue;
      candidates.push(bound.components.join('.'));
    }
    const compatible = candidates
      .filter((build) => isCompatibleBuild(build, since, until))
      .sort((a, b) => compareBuildNumbers(b, a));
    const build = compatible[0];
    if (build === undefined) continue;
    targets.push({
      productBuild: `${VERIFICATION_PRODUCT.code}-${build}`,
      productName: productFullName(VERIFICATION_PRODUCT),
      branch: release.branch,
      release: release.release,
      javaLevel: release.javaLevel,
    });
  }
  return targets;
}

/** The release of a branch, if this table knows it. */
export function platformRelease(branch: number): PlatformRelease | undefined {
  return PLATFORM_RELEASES.find((release) => release.branch === branch);
}
