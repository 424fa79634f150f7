import { consentFromCookies, type ConsentChoice } from '@marketplace/core';
import { useSyncExternalStore } from 'react';
import { api } from './api';

/**
 * The visitor's consent as the site knows it: the `mp_consent` cookie the server writes (readable here, so a
 * visitor who has chosen costs no call), shared by the banner and everything that depends on the choice.
 */
let choice: ConsentChoice | undefined =
  typeof document === 'undefined' ? undefined : consentFromCookies(document.cookie);
const listeners = new Set<() => void>();

function set(next: ConsentChoice | undefined) {
  if (next === choice) return;
  choice = next;
  if (choice !== 'granted') forgetBrowserId();
  for (const listener of listeners) listener();
}

export function useConsent(): ConsentChoice | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => choice,
    // The server renders for a guest who has not chosen; hydration starts from the same.
    () => undefined,
  );
}

/** Asks the server (the signed-in user's stored choice, or this browser's cookie); undefined: not decided. */
export async function readConsent(signal?: AbortSignal): Promise<ConsentChoice | undefined> {
  const answer = await api.consent.get(signal ? { signal } : {});
  const known = answer.analytics === null ? undefined : answer.analytics ? 'granted' : 'denied';
  set(known ?? consentFromCookies(document.cookie));
  return known;
}

/**
 * A choice made before the page's script ran (the banner's form, which carries no sign-in) is in this
 * browser's cookie only: it is kept for the signed-in user too when their account holds no choice yet, so
 * their other browsers do not ask again. A choice the account already holds is left as it is.
 */
export async function keepCookieChoiceForUser(
  cookieChoice: ConsentChoice,
  signal?: AbortSignal,
): Promise<void> {
  const options = signal ? { signal } : {};
  const answer = await api.consent.get(options);
  if (answer.storedFor !== 'user') await api.consent.set(cookieChoice === 'granted', options);
}

/** Records the visitor's choice (for the signed-in user, and in this browser's cookie). */
export async function chooseConsent(analytics: boolean): Promise<void> {
  await api.consent.set(analytics);
  set(analytics ? 'granted' : 'denied');
}

const BROWSER_ID_KEY = 'mp-browser-id';

/**
 * A random id this browser keeps so a guest's share of a percentage flag stays the same across visits. It is
 * kept only with consent (it is not strictly needed); without it a guest is outside percentage roll-outs.
 */
export function browserId(): string | undefined {
  if (choice !== 'granted') return undefined;
  try {
    let id = localStorage.getItem(BROWSER_ID_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(BROWSER_ID_KEY, id);
    }
    return id;
  } catch {
    return undefined;
  }
}

function forgetBrowserId() {
  try {
    localStorage.removeItem(BROWSER_ID_KEY);
  } catch {
    // Storage refused: nothing was kept.
  }
}
