/**
 * Feature flags (spec §7 `/api/features`): named switches an operator turns without a release. A flag has a
 * type that says whom it is on for, and a value of that type:
 * - `boolean`: on or off for everyone (`true` / `false`);
 * - `percentage`: on for that share of visitors, 0 to 100 (a whole number); sticky per visitor: the flag's
 *   name and the visitor (signed-in user, else the browser's id) hash into a bucket 0..99, on below the share;
 * - `users`: on for the signed-in users listed (by login);
 * - `vendors`: on for the people of the vendors listed (by name): owners and developers of their items.
 * Evaluation is pure and shared by the server (`app.features.isOn`) and its public answer to the site.
 */

export const FEATURE_TYPES = ['boolean', 'percentage', 'users', 'vendors'] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

export function isFeatureType(value: unknown): value is FeatureType {
  return typeof value === 'string' && (FEATURE_TYPES as readonly string[]).includes(value);
}

/** What each type is called on screens. */
export const FEATURE_TYPE_LABELS: Readonly<Record<FeatureType, string>> = {
  boolean: 'On or off',
  percentage: 'Share of visitors',
  users: 'Listed users',
  vendors: 'Listed vendors',
};

/** A flag's name: lower-case letters, digits and single dashes or dots, 2 to 64 characters. */
export const FEATURE_NAME_PATTERN = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;
export const FEATURE_NAME_MAX_LENGTH = 64;
export const FEATURE_DESCRIPTION_MAX_LENGTH = 500;
/** At most this many users or vendors in one list. */
export const FEATURE_LIST_MAX_LENGTH = 200;
/** Path words below /api/features that a flag cannot be called, since its own path would be taken. */
export const RESERVED_FEATURE_NAMES: readonly string[] = ['search', 'group-by-types', 'statistic', 'mine'];

/** The rule of a flag as kept: lists hold ids (the API speaks logins and vendor names). */
export type FeatureRule =
  | { type: 'boolean'; enabled: boolean }
  | { type: 'percentage'; percent: number }
  | { type: 'users'; userIds: readonly number[] }
  | { type: 'vendors'; vendorIds: readonly number[] };

/** Who a flag is evaluated for. Absent parts are unknown: a guest has no user, a crawler no browser id. */
export interface FeatureSubject {
  userId?: number | undefined;
  /** The vendors the user acts for; only read by `vendors` flags. */
  vendorIds?: readonly number[] | undefined;
  /** A random id the browser keeps for itself, for sticky percentages of guests. */
  browserId?: string | undefined;
}

/** A browser id: 8 to 64 letters, digits, dashes or underscores (a UUID fits). */
export const BROWSER_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** FNV-1a, 32 bits: stable across processes and platforms, cheap, and spread enough for buckets. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The bucket 0..99 a subject falls into for a flag: the same flag and subject always give the same one. */
export function percentageBucket(flagName: string, subjectKey: string): number {
  return fnv1a(`${flagName}\u0000${subjectKey}`) % 100;
}

/** The key a percentage is sticky to: the user when signed in (the same on every device), else the browser. */
export function subjectKeyOf(subject: FeatureSubject): string | undefined {
  if (subject.userId !== undefined) return `user:${subject.userId}`;
  if (subject.browserId !== undefined && BROWSER_ID_PATTERN.test(subject.browserId)) {
    return `browser:${subject.browserId}`;
  }
  return undefined;
}

/**
 * Whether a flag is on for the subject. A percentage between 0 and 100 is off for a subject with neither user
 * nor browser id (it cannot be sticky for them); 100 is on for everyone.
 */
export function evaluateFeature(name: string, rule: FeatureRule, subject: FeatureSubject): boolean {
  switch (rule.type) {
    case 'boolean':
      return rule.enabled;
    case 'percentage': {
      if (rule.percent >= 100) return true;
      if (rule.percent <= 0) return false;
      const key = subjectKeyOf(subject);
      return key !== undefined && percentageBucket(name, key) < rule.percent;
    }
    case 'users':
      return subject.userId !== undefined && rule.userIds.includes(subject.userId);
    case 'vendors':
      return (subject.vendorIds ?? []).some((vendorId) => rule.vendorIds.includes(vendorId));
    default:
      return rule satisfies never;
  }
}

/** The value of a flag as the API carries it: a boolean, a whole percentage, or logins / vendor names. */
export type FeatureValue = boolean | number | string[];

export type FeatureValueCheck =
  { ok: true; value: boolean | number | string[] } | { ok: false; message: string };

/**
 * Checks a value against its flag's type and gives it back normalised (lists trimmed, duplicates removed).
 * The message says what the type expects, for the 400 answer.
 */
export function checkFeatureValue(type: FeatureType, value: unknown): FeatureValueCheck {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean'
        ? { ok: true, value }
        : { ok: false, message: 'A boolean flag’s value is true or false.' };
    case 'percentage':
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return { ok: false, message: 'A percentage flag’s value is a whole number from 0 to 100.' };
      }
      if (value < 0 || value > 100) {
        return { ok: false, message: `A percentage is from 0 to 100; ${value} is not.` };
      }
      return { ok: true, value };
    case 'users':
    case 'vendors': {
      const what = type === 'users' ? 'logins of users' : 'names of vendors';
      if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
        return { ok: false, message: `A ${type} flag’s value is a list of ${what}.` };
      }
      const entries = [...new Set((value as string[]).map((entry) => entry.trim()).filter(Boolean))];
      if (entries.length > FEATURE_LIST_MAX_LENGTH) {
        return { ok: false, message: `A list holds at most ${FEATURE_LIST_MAX_LENGTH} ${what}.` };
      }
      return { ok: true, value: entries };
    }
    default:
      return type satisfies never;
  }
}

/** Checks a flag's name; undefined when it is fine, else the message for the 400 answer. */
export function featureNameProblem(name: string): string | undefined {
  if (name.length < 2 || name.length > FEATURE_NAME_MAX_LENGTH || !FEATURE_NAME_PATTERN.test(name)) {
    return (
      `A flag’s name is 2 to ${FEATURE_NAME_MAX_LENGTH} lower-case letters and digits, words joined by ` +
      `single dashes or dots (e.g. home-new-items); "${name.slice(0, 80)}" is not.`
    );
  }
  if (RESERVED_FEATURE_NAMES.includes(name)) {
    return `"${name}" names a path below /api/features, so a flag cannot be called that.`;
  }
  return undefined;
}

/** The flags the site itself reads, so their names are written once. */
export const SITE_FEATURES = {
  /** The home page shows the newest items in a section of their own. */
  homeNewItems: 'home-new-items',
  /** The home page's hero tells how the search field suggests items and tags. */
  homeSearchHint: 'home-search-hint',
} as const;
