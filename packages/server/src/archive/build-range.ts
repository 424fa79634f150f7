import { compareBuildNumbers, parseBuildNumber } from '@marketplace/core';
import type { BuildNumber } from '@marketplace/core';

/**
 * The oldest branch a plugin may name: 130 is IntelliJ IDEA 13 (2013), the first platform the marketplace
 * serves. Lower numbers are typos or copy-paste from ancient templates.
 */
export const OLDEST_BRANCH = 130;

/** How many years ahead of today a branch may point before it is taken as made up (999.* and friends). */
export const FUTURE_BRANCH_YEARS = 2;

/** The newest branch a plugin may name today: every release of the year two years from now (2026 -> 289). */
export function newestPlausibleBranch(now: Date): number {
  const year = (now.getUTCFullYear() % 100) + FUTURE_BRANCH_YEARS;
  return year * 10 + 9;
}

/**
 * Checks `<idea-version since-build until-build>`. since is required, must be a real build number without a
 * product code or wildcard, and name a branch that exists or soon will; until is optional (empty = no upper
 * bound), may end in `.*`, and must not be older than since. Returns the errors, empty when the range is fine.
 */
export function buildRangeErrors(since: string | null, until: string | null, now: Date): string[] {
  if (since === null || since.trim() === '') {
    return [
      'plugin.xml does not declare since-build: add <idea-version since-build="..."/> with the oldest IDE build the plugin supports, for example since-build="241".',
    ];
  }
  const errors: string[] = [];
  const newest = newestPlausibleBranch(now);
  const sinceBuild = parseBuildNumber(since);
  if (sinceBuild === undefined) {
    errors.push(
      `since-build '${since}' is not a build number: write it as branch.build, for example 241 or 241.14494.`,
    );
  } else if (sinceBuild.productCode !== undefined) {
    errors.push(
      `since-build '${since}' starts with a product code: plugins declare platform builds without one, for example '${withoutProductCode(since)}'.`,
    );
  } else if (sinceBuild.components.some((component) => component === Number.MAX_SAFE_INTEGER)) {
    errors.push(
      `since-build '${since}' contains a wildcard: since-build must name an exact build, for example 241.`,
    );
  } else {
    const branch = branchOf(sinceBuild);
    if (branch < OLDEST_BRANCH) {
      errors.push(
        `since-build '${since}' is made up: branch ${branch} is older than ${OLDEST_BRANCH} (IntelliJ IDEA 13), the oldest IDE the marketplace serves.`,
      );
    } else if (branch > newest) {
      errors.push(madeUpFuture('since-build', since, branch, newest));
    }
  }
  if (until === null || until.trim() === '') return errors;
  const untilBuild = parseBuildNumber(until);
  if (untilBuild === undefined) {
    errors.push(
      `until-build '${until}' is not a build number: write it as branch.build or branch.*, for example 243.*, or leave it out for no upper bound.`,
    );
    return errors;
  }
  if (untilBuild.productCode !== undefined) {
    errors.push(
      `until-build '${until}' starts with a product code: plugins declare platform builds without one, for example '${withoutProductCode(until)}'.`,
    );
    return errors;
  }
  const untilBranch = branchOf(untilBuild);
  if (untilBranch > newest) {
    errors.push(madeUpFuture('until-build', until, untilBranch, newest));
  } else if (untilBranch < OLDEST_BRANCH) {
    errors.push(
      `until-build '${until}' is made up: branch ${untilBranch} is older than ${OLDEST_BRANCH} (IntelliJ IDEA 13), the oldest IDE the marketplace serves.`,
    );
  } else if (sinceBuild !== undefined && compareBuildNumbers(untilBuild, sinceBuild) < 0) {
    errors.push(
      `until-build '${until}' is older than since-build '${since}': no IDE could install this version.`,
    );
  }
  return errors;
}

function branchOf(build: BuildNumber): number {
  return build.components[0] ?? 0;
}

function madeUpFuture(attribute: string, value: string, branch: number, newest: number): string {
  const shownBranch = branch === Number.MAX_SAFE_INTEGER ? '*' : String(branch);
  const hint =
    attribute === 'until-build'
      ? ' Leave until-build out to mean "no upper bound", or name the newest branch you have tested with.'
      : '';
  return `${attribute} '${value}' is made up: branch ${shownBranch} lies beyond ${newest}, the newest branch that can exist within ${FUTURE_BRANCH_YEARS} years.${hint}`;
}

function withoutProductCode(value: string): string {
  return value.slice(value.indexOf('-') + 1);
}
