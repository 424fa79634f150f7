/** An offer's validity window and the licence kinds it covers (empty: every kind). */
export interface OfferWindow {
  validFrom: Date;
  validUntil: Date;
  licenseKinds: readonly string[];
}

/**
 * Whether two offers of one item conflict: their windows overlap (each is [from, until)) and they cover a
 * licence kind in common, so a buyer holding coupons of both could not tell which price is the real one.
 */
export function offersConflict(a: OfferWindow, b: OfferWindow): boolean {
  const overlap = a.validFrom < b.validUntil && b.validFrom < a.validUntil;
  if (!overlap) return false;
  if (a.licenseKinds.length === 0 || b.licenseKinds.length === 0) return true;
  return a.licenseKinds.some((kind) => b.licenseKinds.includes(kind));
}

/** Coupon codes: unambiguous capitals and digits (no 0/O, 1/I), easy to read aloud and type. */
export const COUPON_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const COUPON_CODE_LENGTH = 12;
/** At most this many coupons are made by one request. */
export const MAX_COUPONS_PER_REQUEST = 1000;

/** A coupon code as typed, made comparable: capitals, no spaces or dashes. */
export function normalizeCouponCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]+/g, '');
}

/** A coupon code from random bytes (one byte per character; the alphabet divides 256 evenly). */
export function couponCodeFromBytes(bytes: Uint8Array): string {
  let code = '';
  for (let index = 0; index < COUPON_CODE_LENGTH; index += 1) {
    code += COUPON_ALPHABET[(bytes[index] ?? 0) % COUPON_ALPHABET.length];
  }
  return code;
}
