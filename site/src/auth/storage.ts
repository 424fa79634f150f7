/**
 * The page's session storage, or undefined where the browser refuses it (a frame on another site with
 * third-party storage blocked): then nothing is kept, and the page still works for a guest.
 */
export function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * The origin's local storage, shared by every tab of the browser, or undefined where the browser refuses it
 * (as for sessionStore).
 */
export function localStore(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** A stored value that may carry an expiry; expired values are removed when read (spec §4). */
interface Stored<T> {
  value: T;
  expiresAt?: number;
}

export function writeStored<T>(
  storage: Storage | undefined,
  key: string,
  value: T,
  expiresAt?: number,
): void {
  try {
    if (!storage) return;
    const entry: Stored<T> = expiresAt === undefined ? { value } : { value, expiresAt };
    storage.setItem(key, JSON.stringify(entry));
  } catch (error) {
    // Storage may be full or blocked; the visitor can still use the page (spec §8: only logged).
    console.warn(`Could not store ${key}`, error);
  }
}

export function readStored<T>(storage: Storage | undefined, key: string, now = Date.now()): T | undefined {
  try {
    if (!storage) return undefined;
    const text = storage.getItem(key);
    if (text === null) return undefined;
    const entry = JSON.parse(text) as Stored<T>;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
      storage.removeItem(key);
      return undefined;
    }
    return entry.value;
  } catch (error) {
    console.warn(`Could not read ${key}`, error);
    return undefined;
  }
}

export function removeStored(storage: Storage | undefined, key: string): void {
  try {
    storage?.removeItem(key);
  } catch (error) {
    console.warn(`Could not remove ${key}`, error);
  }
}
