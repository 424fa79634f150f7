import { describe, expect, it } from 'vitest';
import { buildRangeErrors, newestPlausibleBranch } from './build-range';

const NOW = new Date('2026-11-21T00:00:00Z');

describe('buildRangeErrors', () => {
  it.each([
    ['241', null],
    ['241', '243.*'],
    ['241.14494', '241.14494.240'],
    ['130', '289.*'],
    ['233.11799.241', '241'],
    ['241', ''],
  ])('accepts since %s until %s', (since, until) => {
    expect(buildRangeErrors(since, until, NOW)).toEqual([]);
  });

  it('asks for since-build when it is missing', () => {
    expect(buildRangeErrors(null, '243.*', NOW)).toEqual([
      'plugin.xml does not declare since-build: add <idea-version since-build="..."/> with the oldest IDE build the plugin supports, for example since-build="241".',
    ]);
    expect(buildRangeErrors('  ', null, NOW)).toHaveLength(1);
  });

  it.each([
    ['abc', "since-build 'abc' is not a build number"],
    ['241.', "since-build '241.' is not a build number"],
    [
      'IU-241',
      "since-build 'IU-241' starts with a product code: plugins declare platform builds without one, for example '241'.",
    ],
    ['241.*', "since-build '241.*' contains a wildcard"],
    ['129.9999', "since-build '129.9999' is made up: branch 129 is older than 130 (IntelliJ IDEA 13)"],
    ['9500', "since-build '9500' is made up: branch 85 is older than 130"],
    [
      '290',
      "since-build '290' is made up: branch 290 lies beyond 289, the newest branch that can exist within 2 years.",
    ],
  ])('refuses since %s', (since, message) => {
    const errors = buildRangeErrors(since, null, NOW);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it.each([
    ['241', 'x.1', "until-build 'x.1' is not a build number"],
    ['241', 'IC-243.*', "until-build 'IC-243.*' starts with a product code"],
    ['241', '999.*', "until-build '999.*' is made up: branch 999 lies beyond 289"],
    ['241', '*', "until-build '*' is made up: branch * lies beyond 289"],
    ['241', '120.*', "until-build '120.*' is made up: branch 120 is older than 130"],
    [
      '241.1000',
      '241',
      "until-build '241' is older than since-build '241.1000': no IDE could install this version.",
    ],
    ['243', '241.*', "until-build '241.*' is older than since-build '243'"],
  ])('refuses since %s with until %s', (since, until, message) => {
    const errors = buildRangeErrors(since, until, NOW);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it('reports a bad since and a bad until together', () => {
    expect(buildRangeErrors('12', '999.*', NOW)).toHaveLength(2);
  });

  it('moves the newest plausible branch along with the calendar', () => {
    expect(newestPlausibleBranch(new Date('2026-01-01T00:00:00Z'))).toBe(289);
    expect(newestPlausibleBranch(new Date('2030-06-01T00:00:00Z'))).toBe(329);
    expect(buildRangeErrors('300', null, new Date('2030-06-01T00:00:00Z'))).toEqual([]);
  });
});
