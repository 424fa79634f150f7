import { describe, expect, it } from 'vitest';
import {
  comparePluginVersions,
  EXCEPTION_REPORT_PATH,
  exceptionStatusText,
  isExceptionStatus,
  reopenNote,
  reopensFixedGroup,
  reporterDeclaration,
} from './exceptions';

describe('plugin versions', () => {
  const ascending = [
    '0.9',
    '1.0-SNAPSHOT',
    '1.0-alpha',
    '1.0-beta.2',
    '1.0-beta.10',
    '1.0-rc1',
    '1.0',
    '1.0.1',
    '1.0.1-sp1',
    '1.2',
    '1.9',
    '1.10',
    '2.0.0-eap',
    '2.0.0',
    '10.0',
    '241.14494.240',
    '2024.1',
    '2024.1.3',
  ];

  it('order as people mean them', () => {
    const shuffled = [...ascending].reverse();
    expect(shuffled.sort(comparePluginVersions)).toEqual(ascending);
  });

  it('treat trailing zeros, a leading v, release words, case and build metadata as the same version', () => {
    expect(comparePluginVersions('1.0', '1.0.0')).toBe(0);
    expect(comparePluginVersions('v1.2.3', '1.2.3')).toBe(0);
    expect(comparePluginVersions('1.2.3-final', '1.2.3')).toBe(0);
    expect(comparePluginVersions('1.2.3+build.77', '1.2.3+build.5')).toBe(0);
    expect(comparePluginVersions('1.0-RC1', '1.0-rc1')).toBe(0);
    expect(comparePluginVersions('01.002', '1.2')).toBe(0);
  });

  it('compare numbers of any length and what follows the shorter one’s end', () => {
    expect(comparePluginVersions('1.0', '1.0.0.5')).toBeLessThan(0);
    expect(comparePluginVersions('1.99999999999999999999', '1.100000000000000000000')).toBeLessThan(0);
    expect(comparePluginVersions('', '1.0')).toBeLessThan(0);
    expect(comparePluginVersions('abc', 'abd')).toBeLessThan(0);
  });
});

describe('reopening a fixed group', () => {
  it('happens only for a version later than the fix', () => {
    expect(reopensFixedGroup('1.4.0', '1.4.1')).toBe(true);
    expect(reopensFixedGroup('1.4.0', '1.10')).toBe(true);
    expect(reopensFixedGroup('1.4.0', '1.4')).toBe(false);
    expect(reopensFixedGroup('1.4.0', '1.3.9')).toBe(false);
    expect(reopensFixedGroup('1.4.0', '1.4.0-rc2')).toBe(false);
    expect(reopensFixedGroup('1.4.0', '')).toBe(false);
    expect(reopenNote('1.4.0', '1.4.1')).toBe(
      'Reopened: a report came from version 1.4.1, later than 1.4.0 where it was marked fixed.',
    );
  });
});

describe('statuses and the reporter line', () => {
  it('name each status and the version of a fix', () => {
    expect(isExceptionStatus('fixed')).toBe(true);
    expect(isExceptionStatus('closed')).toBe(false);
    expect(exceptionStatusText('fixed', '2.1')).toBe('Fixed in 2.1');
    expect(exceptionStatusText('investigating', null)).toBe('Investigating');
  });

  it('gives the Kotlin line that points a plugin’s reporter at this marketplace', () => {
    expect(EXCEPTION_REPORT_PATH).toBe('/trackerRpc/idea/createScr');
    expect(reporterDeclaration('https://plugins.example.com/')).toBe(
      'class Reporter : ITNReporter("https://plugins.example.com/trackerRpc/idea/createScr")',
    );
  });
});
