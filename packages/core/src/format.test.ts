import { describe, expect, it } from 'vitest';
import {
  descriptionExcerpt,
  formatDisplayDate,
  formatNumber,
  formatStatisticsDate,
  parseStatisticsDate,
  hasThemeTag,
  parseProductPageId,
  shouldShowDownloads,
  shouldShowUpdateDate,
  statisticsBarHeights,
  statisticsDays,
  truncateErrorMessage,
} from './format';

describe('item page ids', () => {
  it('reads the number before the first dash', () => {
    expect(parseProductPageId('123-my-plugin')).toBe(123);
    expect(parseProductPageId('123')).toBe(123);
    expect(parseProductPageId('0042-leading-zeros')).toBe(42);
    expect(parseProductPageId('7-')).toBe(7);
  });

  it('finds no id when the part before the dash is not a positive whole number', () => {
    for (const segment of [
      '',
      'my-plugin',
      '-123',
      '12a-plugin',
      '1.5-x',
      '0',
      '0-zero',
      '99999999999999999999',
    ]) {
      expect(parseProductPageId(segment), segment).toBeUndefined();
    }
  });
});

describe('error messages', () => {
  it('are cut to 1000 characters', () => {
    expect(truncateErrorMessage('x'.repeat(1500))).toHaveLength(1000);
    expect(truncateErrorMessage('x'.repeat(1000))).toHaveLength(1000);
    expect(truncateErrorMessage('Plugin id is taken')).toBe('Plugin id is taken');
    expect(truncateErrorMessage('')).toBe('');
  });

  it('never end in half of a two-unit character', () => {
    const text = 'x'.repeat(999) + '😀' + 'tail';
    expect(truncateErrorMessage(text)).toBe('x'.repeat(999));
  });
});

describe('description excerpts', () => {
  it('keep a short description as it is', () => {
    expect(descriptionExcerpt('Adds rainbow brackets.')).toBe('Adds rainbow brackets.');
  });

  it('cut a long description at a word boundary within 290 characters and end it with …', () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`).join(' ');
    const excerpt = descriptionExcerpt(words);
    expect(excerpt.length).toBeLessThanOrEqual(290);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(words.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(words.charAt(excerpt.length - 1)).toBe(' ');
  });

  it('cut a single endless word at exactly 290 characters', () => {
    const excerpt = descriptionExcerpt('a'.repeat(400));
    expect(excerpt).toBe('a'.repeat(289) + '…');
  });

  it('keep a description of exactly 290 characters whole', () => {
    expect(descriptionExcerpt('b'.repeat(290))).toBe('b'.repeat(290));
  });

  it('show the text of an HTML description, without tags, scripts or entities', () => {
    const html =
      '<p>Fast &amp; <b>safe</b>&nbsp;tools</p><script>alert(1)</script><style>p{}</style><ul><li>A &lt;B&gt;</li></ul>';
    expect(descriptionExcerpt(html)).toBe('Fast & safe tools A <B>');
    expect(descriptionExcerpt('caf&#233; &#x2603; &unknown; &#0;')).toBe('café ☃ &unknown; &#0;');
  });

  it('are empty for a missing description', () => {
    expect(descriptionExcerpt(null)).toBe('');
    expect(descriptionExcerpt(undefined)).toBe('');
    expect(descriptionExcerpt('  <p> </p> ')).toBe('');
  });
});

describe('dates', () => {
  const lateEvening = Date.UTC(2026, 10, 5, 23, 30);

  it("show as 'dd.MM.yyyy' in UTC", () => {
    expect(formatDisplayDate(lateEvening)).toBe('05.11.2026');
    expect(formatDisplayDate(new Date(Date.UTC(2019, 5, 26)))).toBe('26.06.2019');
  });

  it("go to the statistics calls as 'yyyy-MM-dd' in UTC", () => {
    expect(formatStatisticsDate(lateEvening)).toBe('2026-11-05');
    expect(formatStatisticsDate(new Date(Date.UTC(2019, 5, 26)))).toBe('2019-06-26');
    expect(parseStatisticsDate('2019-06-26')).toEqual(new Date(Date.UTC(2019, 5, 26)));
    for (const text of ['2026-02-30', '2026-2-3', '26.11.2026', ''])
      expect(parseStatisticsDate(text)).toBeUndefined();
  });

  it('give an empty text for an invalid date', () => {
    expect(formatDisplayDate(Number.NaN)).toBe('');
    expect(formatStatisticsDate(new Date('not a date'))).toBe('');
  });
});

describe('numbers', () => {
  it('are grouped the en-US way', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-1500)).toBe('-1,500');
  });

  it('give an empty text when not finite', () => {
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('update date on a card', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0);
  const hour = 60 * 60 * 1000;

  it('is hidden while the item is 1 day old or less', () => {
    expect(shouldShowUpdateDate({ updatedAt: now - 2 * hour, now, isTheme: false })).toBe(false);
    expect(shouldShowUpdateDate({ updatedAt: now - 24 * hour, now, isTheme: false })).toBe(false);
  });

  it('is shown once the item is older than 1 day', () => {
    expect(shouldShowUpdateDate({ updatedAt: now - 24 * hour - 1, now, isTheme: false })).toBe(true);
    expect(
      shouldShowUpdateDate({ updatedAt: new Date(now - 30 * 24 * hour), now: new Date(now), isTheme: false }),
    ).toBe(true);
  });

  it('is always shown for themes, however new', () => {
    expect(shouldShowUpdateDate({ updatedAt: now - hour, now, isTheme: true })).toBe(true);
    expect(shouldShowUpdateDate({ updatedAt: now, now, isTheme: true })).toBe(true);
  });

  it('is hidden when there is no valid date', () => {
    expect(shouldShowUpdateDate({ updatedAt: null, now, isTheme: true })).toBe(false);
    expect(shouldShowUpdateDate({ updatedAt: undefined, now, isTheme: false })).toBe(false);
    expect(shouldShowUpdateDate({ updatedAt: Number.NaN, now, isTheme: true })).toBe(false);
    expect(shouldShowUpdateDate({ updatedAt: now - 48 * hour, now: Number.NaN, isTheme: false })).toBe(false);
  });

  it('is hidden for a date in the future (a clock ahead of ours)', () => {
    expect(shouldShowUpdateDate({ updatedAt: now + 3 * 24 * hour, now, isTheme: false })).toBe(false);
  });
});

describe('downloads on a card', () => {
  it('are shown only when greater than 0', () => {
    expect(shouldShowDownloads(1)).toBe(true);
    expect(shouldShowDownloads(0)).toBe(false);
    expect(shouldShowDownloads(-3)).toBe(false);
    expect(shouldShowDownloads(null)).toBe(false);
    expect(shouldShowDownloads(undefined)).toBe(false);
    expect(shouldShowDownloads(Number.NaN)).toBe(false);
  });
});

describe('download chart bars', () => {
  it('scale so that the busiest day is 100', () => {
    expect(statisticsBarHeights([10, 50, 100])).toEqual([10, 50, 100]);
    expect(statisticsBarHeights([1, 2, 4])).toEqual([25, 50, 100]);
  });

  it('keep days with downloads at least 1 high and days without at 0', () => {
    expect(statisticsBarHeights([0, 1, 10_000])).toEqual([0, 1, 100]);
  });

  it('show only the last 30 days', () => {
    const values = Array.from({ length: 40 }, (_, index) => index + 1);
    const heights = statisticsBarHeights(values);
    expect(heights).toHaveLength(30);
    expect(heights[0]).toBeCloseTo((11 / 40) * 100);
    expect(heights[29]).toBe(100);
  });

  it('are all 0 when nothing was downloaded, and empty without values', () => {
    expect(statisticsBarHeights([0, 0, 0])).toEqual([0, 0, 0]);
    expect(statisticsBarHeights([])).toEqual([]);
  });

  it('count negative or non-numeric values as no downloads', () => {
    expect(statisticsBarHeights([-5, Number.NaN, 20, Number.POSITIVE_INFINITY])).toEqual([0, 0, 100, 0]);
  });
});

describe('download chart days', () => {
  it('are the 30 UTC days ending with today, oldest first', () => {
    const days = statisticsDays(Date.parse('2026-03-05T23:59:59Z'));
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-02-04');
    expect(days.at(-1)).toBe('2026-03-05');
    expect(new Set(days).size).toBe(30);
  });

  it('move on at midnight UTC, whatever the local time zone', () => {
    expect(statisticsDays(new Date('2026-03-06T00:00:00Z')).at(-1)).toBe('2026-03-06');
    expect(statisticsDays(new Date('2026-03-06T00:00:00Z'))[0]).toBe('2026-02-05');
  });

  it('are none for an invalid date', () => {
    expect(statisticsDays(Number.NaN)).toEqual([]);
    expect(statisticsDays(new Date('not a date'))).toEqual([]);
  });
});

describe('themes', () => {
  it('are the items that carry the theme tag 164', () => {
    expect(hasThemeTag([{ id: 3 }, { id: 164 }])).toBe(true);
    expect(hasThemeTag([{ id: 216 }])).toBe(false);
    expect(hasThemeTag([])).toBe(false);
    expect(hasThemeTag(null)).toBe(false);
  });
});
