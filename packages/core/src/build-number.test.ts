import { describe, expect, it } from 'vitest';
import {
  BUILD_WILDCARD,
  compareBuildNumbers,
  isCompatibleBuild,
  parseBuildNumber,
  parseUntilBuild,
} from './build-number';

const LARGEST = Number.MAX_SAFE_INTEGER;

describe('reading build numbers', () => {
  it('reads the product code and the components', () => {
    expect(parseBuildNumber('IU-241.14494.240')).toEqual({
      productCode: 'IU',
      components: [241, 14494, 240],
    });
    expect(parseBuildNumber('252.23892.409')).toEqual({ components: [252, 23892, 409] });
    expect(parseBuildNumber('  CWMG-233.2  ')).toEqual({ productCode: 'CWMG', components: [233, 2] });
  });

  it('reads *, SNAPSHOT and __BUILD__ as the largest number', () => {
    expect(BUILD_WILDCARD).toBe(LARGEST);
    expect(parseBuildNumber('241.*')?.components).toEqual([241, LARGEST]);
    expect(parseBuildNumber('IU-241.SNAPSHOT')?.components).toEqual([241, LARGEST]);
    expect(parseBuildNumber('241.__BUILD__')?.components).toEqual([241, LARGEST]);
    expect(parseBuildNumber('SNAPSHOT')?.components).toEqual([LARGEST]);
  });

  it('reads a bare number up to 2000 as a branch', () => {
    expect(parseBuildNumber('241')?.components).toEqual([241, 0]);
    expect(parseBuildNumber('2000')?.components).toEqual([2000, 0]);
    expect(parseBuildNumber('IU-241')).toEqual({ productCode: 'IU', components: [241, 0] });
  });

  it('places a bare number above 2000 (a build from before branches) in its old branch', () => {
    expect(parseBuildNumber('2001')?.components).toEqual([40, 2001]);
    expect(parseBuildNumber('9500')?.components).toEqual([85, 9500]);
    expect(parseBuildNumber('10000')?.components).toEqual([88, 10000]);
  });

  it('rejects text that is not a build number', () => {
    for (const text of [
      '',
      '   ',
      'IU-',
      '-241.1',
      '241.',
      '.241',
      '241..1',
      '241.1a',
      '241.-1',
      'IU-241.1-beta',
      'I U-241.1',
      '1IU-241.1',
      '241.99999999999999999999',
      'latest',
    ]) {
      expect(parseBuildNumber(text), text).toBeUndefined();
    }
  });
});

describe('reading until-builds', () => {
  it('reads an explicit large last component as a wildcard', () => {
    expect(parseUntilBuild('145.9999')?.components).toEqual([145, LARGEST]);
    expect(parseUntilBuild('IU-145.99999')).toEqual({ productCode: 'IU', components: [145, LARGEST] });
    expect(parseUntilBuild('145.10000')?.components).toEqual([145, LARGEST]);
    expect(parseUntilBuild('241.14494.99999')?.components).toEqual([241, 14494, LARGEST]);
  });

  it('keeps every other until-build exact', () => {
    expect(parseUntilBuild('241.14494')?.components).toEqual([241, 14494]);
    expect(parseUntilBuild('145.999')?.components).toEqual([145, 999]);
    expect(parseUntilBuild('145.10001')?.components).toEqual([145, 10001]);
    expect(parseUntilBuild('9999')?.components).toEqual([85, 9999]);
    expect(parseUntilBuild('241')?.components).toEqual([241, 0]);
  });

  it('rejects what is not a build number', () => {
    expect(parseUntilBuild('x.9999')).toBeUndefined();
    expect(parseUntilBuild('')).toBeUndefined();
  });
});

describe('ordering build numbers', () => {
  it('compares component by component', () => {
    expect(compareBuildNumbers('241.14494', '241.15989')).toBeLessThan(0);
    expect(compareBuildNumbers('242.1', '241.99999')).toBeGreaterThan(0);
    expect(compareBuildNumbers('IU-241.14494.240', 'IC-241.14494.240')).toBe(0);
  });

  it('compares numbers, not text', () => {
    expect(compareBuildNumbers('241.9', '241.10')).toBeLessThan(0);
  });

  it('puts the shorter first when one is a prefix of the other', () => {
    expect(compareBuildNumbers('241.14494', '241.14494.240')).toBeLessThan(0);
    expect(compareBuildNumbers('241.14494.240', '241.14494')).toBeGreaterThan(0);
  });

  it('treats a bare branch as its first build and a wildcard as beyond every build', () => {
    expect(compareBuildNumbers('241', '241.0')).toBe(0);
    expect(compareBuildNumbers('241.*', '241.99999.99999')).toBeGreaterThan(0);
    expect(compareBuildNumbers('SNAPSHOT', '999.1')).toBeGreaterThan(0);
  });

  it('accepts parsed build numbers as well as text', () => {
    const parsed = parseBuildNumber('241.1');
    expect(parsed).toBeDefined();
    if (parsed) expect(compareBuildNumbers(parsed, '241.2')).toBeLessThan(0);
  });

  it('sorts text that is not a build number before every build number', () => {
    expect(compareBuildNumbers('garbage', '1.0')).toBeLessThan(0);
    expect(compareBuildNumbers('1.0', 'garbage')).toBeGreaterThan(0);
    expect(compareBuildNumbers('garbage', '')).toBe(0);
    expect(['243.1', 'x', '241.5'].sort(compareBuildNumbers)).toEqual(['x', '241.5', '243.1']);
  });
});

describe('plugin compatibility', () => {
  it('is compatible when since <= build and build <= until', () => {
    expect(isCompatibleBuild('IU-241.14494.240', '233', '242.*')).toBe(true);
    expect(isCompatibleBuild('IU-241.14494.240', '241.14494.240', '241.14494.240')).toBe(true);
  });

  it('is not compatible before since or after until', () => {
    expect(isCompatibleBuild('IU-232.10300', '233', '242.*')).toBe(false);
    expect(isCompatibleBuild('IU-243.1', '233', '242.*')).toBe(false);
  });

  it("excludes 241.14494 from until-build '241' but includes it in '241.*'", () => {
    expect(isCompatibleBuild('IU-241.14494', '233', '241')).toBe(false);
    expect(isCompatibleBuild('IU-241.14494', '233', '241.*')).toBe(true);
    expect(isCompatibleBuild('IU-241.0', '233', '241')).toBe(true);
  });

  it('has no upper bound when until is empty', () => {
    for (const until of [null, undefined, '', '  ']) {
      expect(isCompatibleBuild('IU-999.1', '241', until)).toBe(true);
    }
  });

  it('has no lower bound when since is empty', () => {
    expect(isCompatibleBuild('IU-1.1', null, '241.*')).toBe(true);
    expect(isCompatibleBuild('IU-1.1', '', undefined)).toBe(true);
  });

  it('reads an explicit large until such as 145.9999 as 145.*', () => {
    expect(isCompatibleBuild('145.258', '140', '145.9999')).toBe(true);
    expect(isCompatibleBuild('145.99999.5', '140', '145.99999')).toBe(true);
    expect(isCompatibleBuild('145.10001', '140', '145.10000')).toBe(true);
    expect(isCompatibleBuild('146.1', '140', '145.9999')).toBe(false);
  });

  it('keeps real five-digit build components in until exact', () => {
    expect(isCompatibleBuild('241.14495', '233', '241.14494')).toBe(false);
    expect(isCompatibleBuild('145.99998', '140', '145.9998')).toBe(false);
    expect(isCompatibleBuild('145.10001', '140', '145.10001')).toBe(true);
    expect(isCompatibleBuild('145.10002', '140', '145.10001')).toBe(false);
  });

  it('accepts SNAPSHOT IDE builds only where until is open', () => {
    expect(isCompatibleBuild('IU-241.SNAPSHOT', '241', '241.*')).toBe(true);
    expect(isCompatibleBuild('IU-241.SNAPSHOT', '241', '241.15000')).toBe(false);
  });

  it('refuses when the IDE build or a given bound is not a build number', () => {
    expect(isCompatibleBuild('not-a-build', '241', '241.*')).toBe(false);
    expect(isCompatibleBuild('', null, null)).toBe(false);
    expect(isCompatibleBuild('IU-241.1', 'two-four-one', null)).toBe(false);
    expect(isCompatibleBuild('IU-241.1', '233', '241.x')).toBe(false);
  });
});
