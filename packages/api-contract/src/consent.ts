/**
 * Consent (spec §7 `/api/consent`): a visitor's choice about optional cookies and analytics. Signed in, it is
 * kept for the user (and copied to the browser's cookie so downloads from this browser carry it); signed
 * out, in the browser's cookie only. `GET` answers the choice (null: not decided yet, show the banner);
 * `PUT {analytics}` records it. The cookie goes with the request, so the client sends cookies for these two.
 */
import { CONSENT_REQUIREMENTS } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

export const ConsentSchema = Type.Object({
  /** true: accepted, false: declined, null: not decided yet. */
  analytics: Nullable(Type.Boolean()),
  decidedAt: Nullable(Timestamp),
  /** Where the choice is kept: for the signed-in user, or in this browser only. */
  storedFor: Type.Enum(['user', 'browser']),
  /** The operator's CONSENT_REQUIRED: whose requests are counted as a visitor only with consent. */
  required: Type.Enum([...CONSENT_REQUIREMENTS]),
});
export type Consent = Static<typeof ConsentSchema>;

export const ConsentInputSchema = Type.Object({ analytics: Type.Boolean() });
export type ConsentInput = Static<typeof ConsentInputSchema>;
