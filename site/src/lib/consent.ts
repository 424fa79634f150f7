import { consentFromCookies, type ConsentChoice } from '@marketplace/core';
import { useSyncExternalStore } from 'react';
import { api } from './api';

/**
 * The visitor's consent as the site knows it: the `mp_consent` cookie the server writes (readable here, so a
 * visitor who has chosen costs no call), shared by the banner and everything that depends on the choice.
 */
let choice: ConsentChoice | undefined = consentFromCookies(document.cookie);
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
  );
}

/** Asks the server (the signed-in user's stored choice, or this browser's cookie); undefined: not decided. */
export async function readConsent(signal?: AbortSignal): Promise<ConsentChoice | undefined> {
  const answer = await api.consent.get(signal ? { signal } : {});
  const known = answer.analytics === null ? undefined : answer.analytics ? 'granted' : 'denied';
  set(known ?? consentFromCookies(document.cookie));
  return known;
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
