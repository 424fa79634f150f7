/** The vendor's own namespaces: ids under them are the vendor's, whoever uploads. */
export const DEFAULT_RESERVED_ID_PREFIXES = ['com.jetbrains.', 'com.intellij.', 'org.jetbrains.'] as const;

import { ID_PREFIX_MAX_LENGTH, ID_PREFIX_PATTERN } from '@marketplace/api-contract';

export interface TrustOptions {
  /** Prefixes nobody may use until an administrator grants them to a vendor: the defaults and the operator's. */
  reservedPrefixes: readonly string[];
  /** An item with at least this many downloads is popular: names near its name are sent to moderation. */
  popularDownloads: number;
  /** The largest edit distance of a name from a popular item's name that is still held for moderation (0: off). */
  nameDistance: number;
  /** Names shorter than this (folded) are never compared by distance: short names are near everything. */
  nameDistanceMinLength: number;
  /** How long the administrators' DNS check waits for an answer. */
  dnsTimeoutMs: number;
}

export class TrustConfigError extends Error {
  override name = 'TrustConfigError';
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new TrustConfigError(`${name} must be a whole number of 0 or more, got "${text}".`);
  }
  return value;
}

/** 'com.acme' or 'Com.Acme.' as the stored form 'com.acme.'; undefined when it is no prefix of ids. */
export function normalizePrefix(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase();
  const prefix = trimmed.endsWith('.') ? trimmed : `${trimmed}.`;
  return ID_PREFIX_PATTERN.test(prefix) && prefix.length <= ID_PREFIX_MAX_LENGTH ? prefix : undefined;
}

/**
 * From the environment: `RESERVED_ID_PREFIXES` (the operator's own reserved prefixes, separated by commas,
 * added to com.jetbrains., com.intellij. and org.jetbrains.), `LOOKALIKE_POPULAR_DOWNLOADS` (10000),
 * `LOOKALIKE_NAME_DISTANCE` (2; 0 turns the near-name check off), `LOOKALIKE_NAME_MIN_LENGTH` (5) and
 * `NAMESPACE_DNS_TIMEOUT_SECONDS` (5).
 */
export function trustOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TrustOptions {
  const own = (env.RESERVED_ID_PREFIXES ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const prefix = normalizePrefix(text);
      if (prefix === undefined) {
        throw new TrustConfigError(
          `RESERVED_ID_PREFIXES: "${text}" is not an id prefix; write it like com.example. (two segments or more).`,
        );
      }
      return prefix;
    });
  return {
    reservedPrefixes: [...new Set([...DEFAULT_RESERVED_ID_PREFIXES, ...own])],
    popularDownloads: wholeNumber(env, 'LOOKALIKE_POPULAR_DOWNLOADS', 10_000),
    nameDistance: wholeNumber(env, 'LOOKALIKE_NAME_DISTANCE', 2),
    nameDistanceMinLength: wholeNumber(env, 'LOOKALIKE_NAME_MIN_LENGTH', 5),
    dnsTimeoutMs: Math.max(1, wholeNumber(env, 'NAMESPACE_DNS_TIMEOUT_SECONDS', 5)) * 1000,
  };
}
