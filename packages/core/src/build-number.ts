/**
 * IDE build numbers and plugin compatibility, as the IDE itself reads them (reference/ide-interop.md §6):
 * `[CODE-]branch.build[.more]`, e.g. `IU-241.14494.240`, where 241 is the branch (2024.1).
 */

/** `*`, `SNAPSHOT` and `__BUILD__` stand for "the largest number" and are stored as this value. */
export const BUILD_WILDCARD = Number.MAX_SAFE_INTEGER;

/** A bare number up to this one is a branch (`241` = `241.0`); above it, a build of the years before branches. */
export const MAX_BARE_BRANCH = 2000;

export interface BuildNumber {
  /** The IDE's product code, when the text starts with one (`IU` in `IU-241.1`). */
  productCode?: string;
  /** branch, build and further components; wildcards are {@link BUILD_WILDCARD}. */
  components: number[];
}

const WILDCARD_TOKENS = new Set(['*', 'SNAPSHOT', '__BUILD__']);
const PRODUCT_CODE = /^[A-Za-z][A-Za-z0-9_]*$/;
const DIGITS = /^\d+$/;

/**
 * Builds numbered before branches existed (before IntelliJ IDEA 10) map to the branch they belong to, the
 * way the IDE maps them, so that `9500` sorts below `95.627` and every modern branch.
 */
const HISTORIC_BRANCHES: readonly (readonly [firstBuild: number, branch: number])[] = [
  [10000, 88],
  [9500, 85],
  [9100, 81],
  [8000, 80],
  [7500, 75],
  [7200, 72],
  [6900, 69],
  [6500, 65],
  [6000, 60],
  [5000, 55],
  [4000, 50],
];

function historicBranch(build: number): number {
  return HISTORIC_BRANCHES.find(([firstBuild]) => build >= firstBuild)?.[1] ?? 40;
}

function parseComponent(token: string): number | undefined {
  if (WILDCARD_TOKENS.has(token)) return BUILD_WILDCARD;
  if (!DIGITS.test(token)) return undefined;
  const value = Number(token);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Reads a build number; `undefined` means the text is not one (empty, empty components, letters in a
 * component, a code that is not a word, numbers beyond the safe integer range).
 */
export function parseBuildNumber(text: string): BuildNumber | undefined {
  let rest = text.trim();
  let productCode: string | undefined;
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    productCode = rest.slice(0, dash);
    if (!PRODUCT_CODE.test(productCode)) return undefined;
    rest = rest.slice(dash + 1);
  }
  if (rest === '') return undefined;
  const components: number[] = [];
  for (const token of rest.split('.')) {
    const value = parseComponent(token);
    if (value === undefined) return undefined;
    components.push(value);
  }
  if (components.length === 1) {
    const only = components[0] as number;
    if (only <= MAX_BARE_BRANCH) components.push(0);
    else if (only !== BUILD_WILDCARD) components.unshift(historicBranch(only));
  }
  return productCode === undefined ? { components } : { productCode, components };
}

/**
 * Orders two builds given as components (as {@link parseBuildNumber} reads them): negative when `a` is older.
 * For code that compares many stored builds without parsing them again.
 */
export function compareBuildComponents(a: readonly number[], b: readonly number[]): number {
  const shared = Math.min(a.length, b.length);
  for (let index = 0; index < shared; index++) {
    const difference = (a[index] as number) - (b[index] as number);
    if (difference !== 0) return Math.sign(difference);
  }
  return Math.sign(a.length - b.length);
}

function toBuildNumber(value: string | BuildNumber): BuildNumber | undefined {
  return typeof value === 'string' ? parseBuildNumber(value) : value;
}

/**
 * Orders two build numbers: negative when `a` is older, 0 when equal, positive when newer. Components are
 * compared in turn; when one list is a prefix of the other the shorter is older (`241.1` < `241.1.5`). The
 * product code plays no part. Text that is not a build number sorts before every build number, so a list
 * sorted with this function is stable and keeps bad values out of the way at its start.
 */
export function compareBuildNumbers(a: string | BuildNumber, b: string | BuildNumber): number {
  const first = toBuildNumber(a);
  const second = toBuildNumber(b);
  if (first === undefined || second === undefined) {
    return (first === undefined ? 0 : 1) - (second === undefined ? 0 : 1);
  }
  return compareBuildComponents(first.components, second.components);
}

/**
 * An until-build whose last component is four or more nines, or 1 followed by four or more zeros
 * (`145.9999`, `145.99999`, `145.10000`), was written to mean "any build of 145": it is read as `145.*`,
 * as the IDE reads it. Real build components such as `241.14494` are not of that form and stay exact.
 */
const EXPLICIT_LARGE_LAST_COMPONENT = /^(.+)\.(9{4,}|10{4,})$/;

/**
 * Reads an until-build the way compatibility checks must: like {@link parseBuildNumber}, except that an
 * explicit large last component (`145.9999`) becomes a wildcard (`145.*`). Use it wherever an until bound
 * is stored or compared, so that every check agrees with {@link isCompatibleBuild}.
 */
export function parseUntilBuild(until: string): BuildNumber | undefined {
  const match = EXPLICIT_LARGE_LAST_COMPONENT.exec(until.trim());
  return parseBuildNumber(match === null ? until : `${match[1] as string}.*`);
}

function isBlank(value: string | null | undefined): value is null | undefined | '' {
  return value == null || value.trim() === '';
}

/**
 * Whether a plugin version with these bounds installs into the IDE with build number `build`:
 * `since <= build` and (until is empty or `build <= until`); an empty since sets no lower bound.
 *
 * It fails closed: when `build` or a bound that is present is not a build number, the answer is false,
 * because the IDE would refuse such a version and offering an install that cannot happen misleads people.
 */
export function isCompatibleBuild(
  build: string,
  since: string | null | undefined,
  until: string | null | undefined,
): boolean {
  const ideBuild = parseBuildNumber(build);
  if (ideBuild === undefined) return false;
  if (!isBlank(since)) {
    const lower = parseBuildNumber(since);
    if (lower === undefined || compareBuildComponents(lower.components, ideBuild.components) > 0)
      return false;
  }
  if (!isBlank(until)) {
    const upper = parseUntilBuild(until);
    if (upper === undefined || compareBuildComponents(ideBuild.components, upper.components) > 0)
      return false;
  }
  return true;
}
