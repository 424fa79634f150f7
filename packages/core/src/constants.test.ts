import { describe, expect, it } from 'vitest';
import * as constants from './constants';

describe('business constants of the spec', () => {
  it('scans for IDEs from port 63342, giving up after 2 failed ports or 10 attempts', () => {
    expect(constants.IDE_PORT_START).toBe(63342);
    expect(constants.IDE_SCAN_MAX_FAILED_PORTS).toBe(2);
    expect(constants.IDE_SCAN_MAX_ATTEMPTS).toBe(10);
  });

  it('caches the IDE list for 60 s and polls running IDEs every 10 s', () => {
    expect(constants.IDE_CACHE_TTL_MS).toBe(60_000);
    expect(constants.RUNNING_IDE_POLL_INTERVAL_MS).toBe(10_000);
  });

  it('re-checks the course plugin up to 5 times, 5000 ms apart, by its plugin id', () => {
    expect(constants.COURSE_PLUGIN_RECHECK_TRIES).toBe(5);
    expect(constants.COURSE_PLUGIN_RECHECK_INTERVAL_MS).toBe(5000);
    expect(constants.EDU_PLUGIN_XML_ID).toBe('com.jetbrains.edu');
  });

  it('pages users plugins by 12, comments by 20 and the mixed search by 6, with 5 stars by default', () => {
    expect(constants.USER_PLUGINS_PAGE_SIZE).toBe(12);
    expect(constants.COMMENTS_PAGE_SIZE).toBe(20);
    expect(constants.ANY_SEARCH_PAGE_SIZE).toBe(6);
    expect(constants.DEFAULT_STAR_COUNT).toBe(5);
  });

  it('cuts errors at 1000 characters and descriptions at 290', () => {
    expect(constants.ERROR_MESSAGE_MAX_LENGTH).toBe(1000);
    expect(constants.DESCRIPTION_EXCERPT_LENGTH).toBe(290);
  });

  it('shows at most 30 days of statistics, never before 2019-06-26, featuring nine countries', () => {
    expect(constants.STATISTICS_MAX_DAYS).toBe(30);
    expect(constants.MARKETPLACE_START_DATE).toBe('2019-06-26');
    expect(constants.FEATURED_COUNTRIES).toEqual(['US', 'CN', 'DE', 'GB', 'FR', 'IN', 'IL', 'UA', 'CH']);
  });

  it('keeps the look of the spec: accent colour, theme tag, toast timing, dropdown offset, card and placeholders', () => {
    expect(constants.BRAND_ACCENT_COLOR).toBe('#167dff');
    expect(constants.THEME_TAG_ID).toBe(164);
    expect(constants.TOAST_AUTO_CLOSE_MS).toBe(5000);
    expect(constants.DROPDOWN_OFFSET_PX).toBe(8);
    expect(constants.THEME_CARD_IMAGE).toEqual({ width: 382, height: 213 });
    expect(constants.LOADING_PLACEHOLDER_WIDTHS).toEqual([100, 80, 70, 50]);
    expect(constants.LOADING_PLACEHOLDER_DEFAULT_LINES).toBe(3);
    expect(constants.STAR_RATING_SIZES).toEqual(['xs', 's', 'm', 'l']);
  });

  it('gives the AI button size m and multi-line text unless the host page says otherwise', () => {
    expect(constants.AI_BUTTON_DEFAULT_SIZE).toBe('m');
    expect(constants.AI_BUTTON_DEFAULT_ALLOW_MULTILINE).toBe(true);
  });

  it('reports untyped failures as warnings and treats 500 and above as internal errors', () => {
    expect(constants.DEFAULT_ERROR_TYPE).toBe('warning');
    expect(constants.INTERNAL_ERROR_MIN_STATUS).toBe(500);
  });

  it('draws chart bars from 1 to 100 percent and writes dates and numbers in the spec formats', () => {
    expect(constants.STATISTICS_BAR_MIN_PERCENT).toBe(1);
    expect(constants.STATISTICS_BAR_MAX_PERCENT).toBe(100);
    expect(constants.STATISTICS_DATE_FORMAT).toBe('yyyy-MM-dd');
    expect(constants.DISPLAY_DATE_FORMAT).toBe('dd.MM.yyyy');
    expect(constants.NUMBER_LOCALE).toBe('en-US');
  });

  it('counts a day as 24 hours', () => {
    expect(constants.DAY_MS).toBe(86_400_000);
  });
});
