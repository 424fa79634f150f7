/**
 * Consent (spec §7 `/api/consent`): a visitor's choice about optional cookies and analytics. `granted`
 * lets statistics tell the visitor's downloads apart on a day (a daily-salted hash, the unique-downloader
 * count); `denied` does not. The browser keeps the choice in the cookie `CONSENT_COOKIE`.
 */
export const CONSENT_COOKIE = 'mp_consent';
export const CONSENT_CHOICES = ['granted', 'denied'] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];
/** A choice is asked again after about six months. */
export const CONSENT_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/**
 * Where the banner's form posts a choice (fields `choice`: one of CONSENT_CHOICES, `returnTo`: the page's path
 * and query), so the banner works before the page's script has run, or without it; the server records the
 * choice as `PUT /api/consent` does and answers 303 back to that page.
 */
export const CONSENT_FORM_PATH = '/consent';

/**
 * The operator's CONSENT_REQUIRED: whose requests need consent before a visitor hash is made.
 * - `none`: only an explicit `denied` stops the hash;
 * - `browsers`: requests from browsers need `granted`; the IDE's own requests (which carry no cookie) are
 *   hashed as before, under the IDE's own data-sharing terms;
 * - `all`: every request needs `granted`, so the IDE's own downloads and update checks are never hashed.
 */
export const CONSENT_REQUIREMENTS = ['none', 'browsers', 'all'] as const;
export type ConsentRequirement = (typeof CONSENT_REQUIREMENTS)[number];

/**
 * Whether statistics may make a visitor hash for a request. A decline is always honoured; an undecided
 * request is hashed unless the operator requires consent for its kind of client.
 */
export function mayHashVisitor(
  requirement: ConsentRequirement,
  choice: ConsentChoice | undefined,
  fromIde: boolean,
): boolean {
  if (choice === 'granted') return true;
  if (choice === 'denied') return false;
  if (requirement === 'all') return false;
  if (requirement === 'browsers') return fromIde;
  return true;
}

/**
 * The consent choice a Cookie header (or `document.cookie`) carries, or undefined when there is none or
 * it is not one of the choices.
 */
export function consentFromCookies(cookieHeader: string | undefined): ConsentChoice | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== CONSENT_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    return (CONSENT_CHOICES as readonly string[]).includes(value) ? (value as ConsentChoice) : undefined;
  }
  return undefined;
}
