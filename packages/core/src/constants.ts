/**
 * The business constants of the specification (§2, §7, §9). Each number lives here once; every package
 * that needs one imports it from here.
 */

/** The first port the IDE's built-in web server listens on; running IDEs take the ports above it. */
export const IDE_PORT_START = 63342;
/** The port scan gives up after this many ports that did not answer as an IDE. */
export const IDE_SCAN_MAX_FAILED_PORTS = 2;
/** The port scan never probes more than this many ports, answered or not. */
export const IDE_SCAN_MAX_ATTEMPTS = 10;
/** How long the list of running IDEs and their compatibility answers are reused before asking again. */
export const IDE_CACHE_TTL_MS = 60_000;
/** How often the AI button looks for running IDEs again. */
export const RUNNING_IDE_POLL_INTERVAL_MS = 10_000;

/** After asking the IDE to install the course plugin, how many times its presence is checked again. */
export const COURSE_PLUGIN_RECHECK_TRIES = 5;
/** The pause between two of those checks. */
export const COURSE_PLUGIN_RECHECK_INTERVAL_MS = 5_000;
/** The plugin id (plugin.xml `<id>`) of the education plugin that opens courses in the IDE. */
export const EDU_PLUGIN_XML_ID = 'com.jetbrains.edu';

/** Stars in a read-only rating when nothing else is asked. */
export const DEFAULT_STAR_COUNT = 5;
/** Page size of a user's plugin list (`/api/users/{id}/plugins?page=1&size=12`). */
export const USER_PLUGINS_PAGE_SIZE = 12;
/** Page size of a user's comments (`/api/users/{id}/comments?page=1&size=20`). */
export const COMMENTS_PAGE_SIZE = 20;
/** Default page size of the search that mixes plugins and themes ('any'). */
export const ANY_SEARCH_PAGE_SIZE = 6;

/** Error messages shown to people are cut to this many characters. */
export const ERROR_MESSAGE_MAX_LENGTH = 1000;
/** The longest description excerpt an item card shows. */
export const DESCRIPTION_EXCERPT_LENGTH = 290;

/** The download chart shows at most this many daily values. */
export const STATISTICS_MAX_DAYS = 30;
/** Bars of the download chart are scaled to this height for the busiest day, in percent. */
export const STATISTICS_BAR_MAX_PERCENT = 100;
/** A day with any downloads keeps at least this bar height, in percent, so that it stays visible. */
export const STATISTICS_BAR_MIN_PERCENT = 1;
/** How dates are written in statistics calls (in UTC). */
export const STATISTICS_DATE_FORMAT = 'yyyy-MM-dd';
/** How dates are shown on the site (in UTC). */
export const DISPLAY_DATE_FORMAT = 'dd.MM.yyyy';
/** The locale numbers are shown in. */
export const NUMBER_LOCALE = 'en-US';
/** The first day the marketplace counted anything: statistics never start earlier (yyyy-MM-dd). */
export const MARKETPLACE_START_DATE = '2019-06-26';
/** Countries picked out in statistics by country, in the spec's order (ISO 3166-1 alpha-2). */
export const FEATURED_COUNTRIES = ['US', 'CN', 'DE', 'GB', 'FR', 'IN', 'IL', 'UA', 'CH'] as const;
/** One of {@link FEATURED_COUNTRIES}. */
export type FeaturedCountry = (typeof FEATURED_COUNTRIES)[number];

/** The brand accent colour. */
export const BRAND_ACCENT_COLOR = '#167dff';

/** Items carrying the tag with this id are themes. */
export const THEME_TAG_ID = 164;
/** The most tags an item may carry (its first upload and POST /api/plugins/{id}/tags refuse more). */
export const MAX_PLUGIN_TAGS = 30;

/** The longest review or reply kept, in characters, after markup is removed. */
export const REVIEW_TEXT_MAX_LENGTH = 5000;
/** The longest review text accepted at all: markup is removed from it, so it may be longer than what is kept. */
export const REVIEW_RAW_TEXT_MAX_LENGTH = 20_000;

/** Toasts other than errors close by themselves after this long, unless kept open or holding controls. */
export const TOAST_AUTO_CLOSE_MS = 5000;
/** The gap between a dropdown menu and the control that opened it. */
export const DROPDOWN_OFFSET_PX = 8;
/** The image size on a theme card, in CSS pixels. */
export const THEME_CARD_IMAGE = { width: 382, height: 213 } as const;
/** The widths, in percent, of the lines of a loading placeholder. */
export const LOADING_PLACEHOLDER_WIDTHS = [100, 80, 70, 50] as const;
/** How many lines a loading placeholder shows when nothing else is asked. */
export const LOADING_PLACEHOLDER_DEFAULT_LINES = 3;

/** Sizes of the read-only star rating. */
export const STAR_RATING_SIZES = ['xs', 's', 'm', 'l'] as const;
/** One of {@link STAR_RATING_SIZES}. */
export type StarRatingSize = (typeof STAR_RATING_SIZES)[number];

/** Defaults of the AI-assistant install button's query parameters (`/embeddable/ai/{pluginId}`). */
export const AI_BUTTON_DEFAULT_SIZE = 'm';
export const AI_BUTTON_DEFAULT_ALLOW_MULTILINE = true;

/** A failed HTTP answer whose JSON body names no type is reported with this type. */
export const DEFAULT_ERROR_TYPE = 'warning';
/** HTTP statuses from this one up are the server's fault: the notification says only 'Internal Error'. */
export const INTERNAL_ERROR_MIN_STATUS = 500;

/** The download-count query asks the server to fill days without downloads with zeros. */
export const DOWNLOADS_COUNT_FILL = 'full';

/** One day, for rules such as "hidden when the item is 1 day old or less". */
export const DAY_MS = 24 * 60 * 60 * 1000;
