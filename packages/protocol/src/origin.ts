/**
 * Origins are compared as the browser reports them in `MessageEvent.origin`: scheme, host and port, with
 * default ports left out. Opaque origins ('null', from sandboxed frames and file: pages) and the wildcard
 * are never valid: a message from or to them could be read or forged by anyone.
 */

/** The canonical origin of an http(s) URL or origin string, or undefined when it has none. */
export function parseOrigin(value: string): string | undefined {
  if (value === '*' || value === 'null') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return url.origin;
}

export interface OriginAllowlist {
  /** The canonical origins in the list. */
  readonly origins: readonly string[];
  /** True when `origin` (as in `MessageEvent.origin`) is exactly one of the listed origins. */
  allows(origin: string): boolean;
}

export class InvalidOriginError extends Error {
  constructor(readonly value: string) {
    super(
      `'${value}' is not an origin. Give the scheme, host and optional port of a page, for example https://plugins.example.com.`,
    );
    this.name = 'InvalidOriginError';
  }
}

/** Builds an allowlist from origins or page URLs; throws `InvalidOriginError` on anything that is not one. */
export function createOriginAllowlist(entries: readonly string[]): OriginAllowlist {
  const origins = entries.map((entry) => {
    const origin = parseOrigin(entry.trim());
    if (origin === undefined) throw new InvalidOriginError(entry);
    return origin;
  });
  const set = new Set(origins);
  return {
    origins: [...set],
    allows: (origin) => set.has(origin),
  };
}
