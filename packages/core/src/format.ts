/**
 * Pure formatting and display rules of spec §2, §5 and §9: page ids, cut texts, dates, numbers, and when
 * an item card shows its update date, downloads and bars.
 */
import {
  DAY_MS,
  DESCRIPTION_EXCERPT_LENGTH,
  ERROR_MESSAGE_MAX_LENGTH,
  NUMBER_LOCALE,
  STATISTICS_BAR_MAX_PERCENT,
  STATISTICS_BAR_MIN_PERCENT,
  STATISTICS_MAX_DAYS,
  THEME_TAG_ID,
} from './constants';

/**
 * The plugin id of an item page's path segment: the text before the first dash, which must be a positive
 * whole number ('123-my-plugin' -> 123, '123' -> 123). Anything else is not an item page: undefined.
 */
export function parseProductPageId(segment: string): number | undefined {
  const numericPart = segment.trim().split('-', 1)[0] ?? '';
  if (!/^\d+$/.test(numericPart)) return undefined;
  const id = Number(numericPart);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** Cuts text to `maxLength` UTF-16 units without leaving half of a character made of two of them. */
function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastUnit = cut.charCodeAt(cut.length - 1);
  const endsWithHighSurrogate = lastUnit >= 0xd800 && lastUnit <= 0xdbff;
  return endsWithHighSurrogate ? cut.slice(0, -1) : cut;
}

/** An error message as it is shown: at most 1000 characters. */
export function truncateErrorMessage(text: string): string {
  return cutText(text, ERROR_MESSAGE_MAX_LENGTH);
}

const ELLIPSIS = '…';
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#')) {
    const codePoint =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff
      ? String.fromCodePoint(codePoint)
      : entity;
  }
  return ENTITIES[name.toLowerCase()] ?? entity;
}

/** Descriptions are HTML: the excerpt is their text, with tags dropped and common entities read. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d{1,7}|#x[\da-f]{1,6}|[a-z]+);/gi, decodeEntity)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The description an item card shows: its text, at most 290 characters. A longer text is cut at the last
 * word boundary that leaves room for '…' (or mid-word when one word fills the excerpt), then ends in '…'.
 */
export function descriptionExcerpt(description: string | null | undefined): string {
  const text = htmlToText(description ?? '');
  if (text.length <= DESCRIPTION_EXCERPT_LENGTH) return text;
  const room = cutText(text, DESCRIPTION_EXCERPT_LENGTH - ELLIPSIS.length);
  const lastSpace = room.lastIndexOf(' ');
  const words = lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${words.trimEnd()}${ELLIPSIS}`;
}

function toDate(value: Date | number): Date | undefined {
  const date = typeof value === 'number' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

function utcParts(value: Date | number): { day: string; month: string; year: string } | undefined {
  const date = toDate(value);
  if (date === undefined) return undefined;
  return {
    day: twoDigits(date.getUTCDate()),
    month: twoDigits(date.getUTCMonth() + 1),
    year: String(date.getUTCFullYear()).padStart(4, '0'),
  };
}

/**
 * A date as people read it on the site, 'dd.MM.yyyy', in UTC so that every visitor and the server see the
 * same day for the same timestamp. An invalid date gives an empty text rather than 'NaN'.
 */
export function formatDisplayDate(value: Date | number): string {
  const parts = utcParts(value);
  return parts === undefined ? '' : `${parts.day}.${parts.month}.${parts.year}`;
}

/** A date as the statistics calls take it, 'yyyy-MM-dd' (UTC). An invalid date gives an empty text. */
export function formatStatisticsDate(value: Date | number): string {
  const parts = utcParts(value);
  return parts === undefined ? '' : `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * A yyyy-MM-dd day (spec §9) as the instant it starts in UTC; undefined when the text is not such a day
 * ('2026-02-30' included).
 */
export function parseStatisticsDate(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const day = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || formatStatisticsDate(day) !== text ? undefined : day;
}

const EN_US_NUMBER = new Intl.NumberFormat(NUMBER_LOCALE);

/** A number as the site shows it: en-US grouping ('1,234,567'). Not a number gives an empty text. */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? EN_US_NUMBER.format(value) : '';
}

export interface UpdateDateVisibility {
  /** When the item was last updated (ms timestamp or date); missing means there is nothing to show. */
  updatedAt: Date | number | null | undefined;
  /** The current time (ms timestamp or date). */
  now: Date | number;
  isTheme: boolean;
}

/**
 * Spec §5: "Update date hidden when item is 1 day old or less (not for themes)". Read as: the hiding rule
 * does not apply to themes, so a theme always shows its update date; any other item shows it only once
 * it is more than one day (24 h) old. Without a valid date there is nothing to show.
 */
export function shouldShowUpdateDate({ updatedAt, now, isTheme }: UpdateDateVisibility): boolean {
  if (updatedAt == null) return false;
  const updated = toDate(updatedAt);
  const current = toDate(now);
  if (updated === undefined || current === undefined) return false;
  if (isTheme) return true;
  return current.getTime() - updated.getTime() > DAY_MS;
}

/** Downloads are shown only when there are some. */
export function shouldShowDownloads(downloads: number | null | undefined): boolean {
  return typeof downloads === 'number' && downloads > 0;
}

/**
 * Bar heights, in percent, of the download chart: the last 30 daily values scaled so that the largest is
 * 100; any day with downloads gets at least 1 so that it stays visible, a day without stays 0. Values that
 * are negative or not numbers count as no downloads.
 */
export function statisticsBarHeights(values: readonly number[]): number[] {
  const days = values
    .slice(-STATISTICS_MAX_DAYS)
    .map((value) => (Number.isFinite(value) && value > 0 ? value : 0));
  const largest = Math.max(0, ...days);
  if (largest === 0) return days.map(() => 0);
  return days.map((value) =>
    value === 0 ? 0 : Math.max(STATISTICS_BAR_MIN_PERCENT, (value / largest) * STATISTICS_BAR_MAX_PERCENT),
  );
}

/**
 * The days of the download chart (spec §9): the last STATISTICS_MAX_DAYS calendar days in UTC, ending with
 * the day of `today` itself, oldest first, as yyyy-MM-dd. Computed when asked, so a list kept across
 * midnight still ends on the new day. An invalid date gives no days.
 */
export function statisticsDays(today: Date | number): string[] {
  const time = today instanceof Date ? today.getTime() : today;
  if (!Number.isFinite(time)) return [];
  const midnight = Math.floor(time / DAY_MS) * DAY_MS;
  return Array.from({ length: STATISTICS_MAX_DAYS }, (_, index) =>
    formatStatisticsDate(midnight - (STATISTICS_MAX_DAYS - 1 - index) * DAY_MS),
  );
}

/** An item is a theme when it carries the theme tag (id 164). */
export function hasThemeTag(tags: readonly { id: number }[] | null | undefined): boolean {
  return tags?.some((tag) => tag.id === THEME_TAG_ID) ?? false;
}
