import { CONSENT_FORM_PATH } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useEffect, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../auth/AuthProvider';
import { chooseConsent, keepCookieChoiceForUser, readConsent, useConsent } from '../lib/consent';
import { showErrorToast } from '../lib/errors';
import { consentAskedByPage } from '../lib/page-data';
import { useServerRender } from '../lib/server-render';

/** The element that reopened the banner (the footer's link), while it is open; it gets the focus back. */
let opener: HTMLElement | null = null;
const openerListeners = new Set<() => void>();

function setOpener(element: HTMLElement | null) {
  opener = element;
  for (const listener of openerListeners) listener();
}

function useReopened(): boolean {
  return useSyncExternalStore(
    (listener) => {
      openerListeners.add(listener);
      return () => openerListeners.delete(listener);
    },
    () => opener !== null,
    () => false,
  );
}

/** The footer's "Cookie settings": shows the banner again to change the choice. */
export function ConsentSettingsLink() {
  return (
    <button
      type="button"
      className="site-footer__link"
      onClick={(event) => {
        setOpener(event.currentTarget);
        window.scrollTo({ top: 0 });
      }}
    >
      Cookie settings
    </button>
  );
}

/**
 * The consent banner: shown on a first visit (no choice in this browser, none stored for the signed-in user)
 * and whenever the visitor reopens it. It sits in the page's flow under the header, so it never covers the
 * content; Accept and Decline are equal buttons, reachable by keyboard; reopened, it takes the focus.
 */
export function ConsentBanner() {
  const reopened = useReopened();
  const { user } = useAuth();
  const consent = useConsent();
  const toasts = useToasts();
  const server = useServerRender();
  const location = useLocation();
  // A server-rendered page drawn for a visitor without a choice already shows the banner: it starts shown, so
  // hydration keeps it where it is instead of pushing the page down later.
  const [undecided, setUndecided] = useState(() => server?.askConsent ?? consentAskedByPage());
  const [saving, setSaving] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // Known from the cookie: nothing to ask (the account keeps it too). Otherwise the server may know the
  // signed-in user's choice.
  useEffect(() => {
    if (user === undefined) return;
    const controller = new AbortController();
    if (consent !== undefined) {
      if (user === null) return;
      keepCookieChoiceForUser(consent, controller.signal).catch((error: unknown) => {
        if (!controller.signal.aborted)
          console.warn('Could not keep the consent choice for the account', error);
      });
      return () => controller.abort();
    }
    readConsent(controller.signal).then(
      (known) => setUndecided(known === undefined),
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('Could not read the consent choice', error);
      },
    );
    return () => controller.abort();
  }, [consent, user]);

  useEffect(() => {
    if (reopened) heading.current?.focus();
  }, [reopened]);

  function onClosed() {
    const back = opener;
    setOpener(null);
    back?.focus();
  }

  const shown = reopened || (undecided && consent === undefined);
  if (!shown) return null;

  async function choose(event: MouseEvent, analytics: boolean) {
    // The page's script runs: it records the choice itself, without the form's round trip.
    event.preventDefault();
    setSaving(true);
    try {
      await chooseConsent(analytics);
      setUndecided(false);
      if (reopened) onClosed();
    } catch (error) {
      showErrorToast(toasts, error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="site-consent" aria-labelledby="consent-heading">
      <div className="site-consent__inner">
        <div className="site-consent__text">
          <h2 id="consent-heading" ref={heading} tabIndex={-1}>
            Cookies and statistics
          </h2>
          <p>
            We count downloads for the statistics every item shows. With your permission we also recognise
            your browser within a day (a daily hash that cannot lead back to you) to count unique downloaders,
            and keep a random id for trying new features. No advertising, no tracking across sites.
          </p>
          {consent !== undefined ? (
            <p className="site-muted">
              Your current choice: {consent === 'granted' ? 'accepted' : 'declined'}
              {user ? ', kept for your account' : ', kept in this browser'}.
            </p>
          ) : null}
        </div>
        {/* A real form: before the script has run (or without it), the choice is posted and the server
            answers with this page again, with the cookie and without the banner. */}
        <form className="site-consent__actions" method="post" action={CONSENT_FORM_PATH}>
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
          <button
            type="submit"
            name="choice"
            value="granted"
            className="mp-button"
            disabled={saving}
            onClick={(event) => void choose(event, true)}
          >
            Accept
          </button>
          <button
            type="submit"
            name="choice"
            value="denied"
            className="site-button-secondary"
            disabled={saving}
            onClick={(event) => void choose(event, false)}
          >
            Decline
          </button>
          {reopened ? (
            <button type="button" className="site-consent__close" onClick={onClosed}>
              Close
            </button>
          ) : null}
        </form>
      </div>
    </section>
  );
}
