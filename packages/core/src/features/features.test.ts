import { describe, expect, it } from 'vitest';
import {
  checkFeatureValue,
  evaluateFeature,
  featureNameProblem,
  percentageBucket,
  subjectKeyOf,
} from './index';

describe('feature flag evaluation', () => {
  it('boolean flags are the same for everyone', () => {
    expect(evaluateFeature('a-flag', { type: 'boolean', enabled: true }, {})).toBe(true);
    expect(evaluateFeature('a-flag', { type: 'boolean', enabled: false }, { userId: 1 })).toBe(false);
  });

  it('percentage buckets are sticky per flag and subject, and spread over 0..99', () => {
    expect(percentageBucket('home-new-items', 'user:7')).toBe(percentageBucket('home-new-items', 'user:7'));
    const buckets = new Set<number>();
    let below30 = 0;
    for (let user = 1; user <= 2000; user += 1) {
      const bucket = percentageBucket('home-new-items', `user:${user}`);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(100);
      buckets.add(bucket);
      if (evaluateFeature('home-new-items', { type: 'percentage', percent: 30 }, { userId: user })) {
        below30 += 1;
      }
    }
    expect(buckets.size).toBe(100);
    // About 30% of 2000 users, give or take what hashing spreads.
    expect(below30).toBeGreaterThan(500);
    expect(below30).toBeLessThan(700);
  });

  it('a percentage depends on the flag too: the same visitors are not always the first in', () => {
    const inFirst = [...Array(200).keys()].filter((user) => percentageBucket('first', `user:${user}`) < 50);
    const inSecond = [...Array(200).keys()].filter((user) => percentageBucket('second', `user:${user}`) < 50);
    expect(inFirst).not.toEqual(inSecond);
  });

  it('a signed-in user is sticky by user, a guest by a valid browser id, a stranger gets only 0 and 100', () => {
    expect(subjectKeyOf({ userId: 3, browserId: 'abcdefgh12' })).toBe('user:3');
    expect(subjectKeyOf({ browserId: 'abcdefgh12' })).toBe('browser:abcdefgh12');
    expect(subjectKeyOf({ browserId: 'short' })).toBeUndefined();
    expect(subjectKeyOf({ browserId: 'has spaces and ;' })).toBeUndefined();
    const half = { type: 'percentage', percent: 50 } as const;
    expect(evaluateFeature('x', half, {})).toBe(false);
    expect(evaluateFeature('x', { type: 'percentage', percent: 100 }, {})).toBe(true);
    expect(evaluateFeature('x', { type: 'percentage', percent: 0 }, { userId: 1 })).toBe(false);
    const browser = 'e6f1c6f2-4a83-4c1e-9d8c-0b5d8c1f2a11';
    const once = evaluateFeature('x', half, { browserId: browser });
    expect(evaluateFeature('x', half, { browserId: browser })).toBe(once);
  });

  it('list flags are on for listed users and for the people of listed vendors only', () => {
    const users = { type: 'users', userIds: [4, 9] } as const;
    expect(evaluateFeature('x', users, { userId: 9 })).toBe(true);
    expect(evaluateFeature('x', users, { userId: 5 })).toBe(false);
    expect(evaluateFeature('x', users, {})).toBe(false);
    const vendors = { type: 'vendors', vendorIds: [12] } as const;
    expect(evaluateFeature('x', vendors, { userId: 5, vendorIds: [3, 12] })).toBe(true);
    expect(evaluateFeature('x', vendors, { userId: 5, vendorIds: [3] })).toBe(false);
    expect(evaluateFeature('x', vendors, { userId: 5 })).toBe(false);
  });
});

describe('feature flag values and names', () => {
  it('refuses a value of the wrong type with a message saying what the type takes', () => {
    expect(checkFeatureValue('boolean', 50)).toEqual({
      ok: false,
      message: 'A boolean flag’s value is true or false.',
    });
    expect(checkFeatureValue('percentage', true)).toMatchObject({ ok: false });
    expect(checkFeatureValue('percentage', 12.5)).toMatchObject({ ok: false });
    expect(checkFeatureValue('users', 'admin')).toMatchObject({ ok: false });
    expect(checkFeatureValue('vendors', [1, 2])).toMatchObject({ ok: false });
  });

  it('refuses percentages outside 0..100 and keeps the bounds', () => {
    expect(checkFeatureValue('percentage', 101)).toEqual({
      ok: false,
      message: 'A percentage is from 0 to 100; 101 is not.',
    });
    expect(checkFeatureValue('percentage', -1)).toMatchObject({ ok: false });
    expect(checkFeatureValue('percentage', 0)).toEqual({ ok: true, value: 0 });
    expect(checkFeatureValue('percentage', 100)).toEqual({ ok: true, value: 100 });
  });

  it('normalises lists: trimmed, blanks and duplicates dropped', () => {
    expect(checkFeatureValue('users', [' admin ', 'admin', '', 'visitor'])).toEqual({
      ok: true,
      value: ['admin', 'visitor'],
    });
  });

  it('names: lower-case words with dashes or dots, not a path word of the API', () => {
    expect(featureNameProblem('home-new-items')).toBeUndefined();
    expect(featureNameProblem('search.v2')).toBeUndefined();
    expect(featureNameProblem('Home')).toMatch(/lower-case/);
    expect(featureNameProblem('a--b')).toMatch(/lower-case/);
    expect(featureNameProblem('x')).toMatch(/2 to 64/);
    expect(featureNameProblem('statistic')).toMatch(/path below/);
  });
});
