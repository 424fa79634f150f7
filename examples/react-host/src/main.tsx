import { defineMarketplaceElements } from '@marketplace/elements/react';
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

const params = new URLSearchParams(location.search);

/**
 * Where the marketplace runs: `?marketplace=` in the page's address, else VITE_MARKETPLACE_URL at build
 * time, else `pnpm start`'s address.
 */
function marketplaceOrigin(): string {
  const given = params.get('marketplace') ?? import.meta.env.VITE_MARKETPLACE_URL;
  try {
    const url = new URL(given ?? '');
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // not given, or not an address: the default below
  }
  return 'http://localhost:8080';
}

const MARKETPLACE = marketplaceOrigin();
const pluginId = params.get('plugin') ?? '21';
const aiPluginId = params.get('ai') ?? '3';
const courseId = params.get('course');

// The elements render with this app's React (the SDK's React build has React as a peer dependency).
defineMarketplaceElements();

function InstallWithFeedback() {
  const button = useRef<HTMLElement>(null);
  const [lastResult, setLastResult] = useState<string>('');
  useEffect(() => {
    const element = button.current;
    if (!element) return undefined;
    const onSuccess = (event: GlobalEventHandlersEventMap['install-button:install-success']) =>
      setLastResult(`Installed into ${event.detail.ide.name}`);
    const onError = (event: GlobalEventHandlersEventMap['install-button:install-error']) =>
      setLastResult(`${event.detail.ide.name} did not install it`);
    element.addEventListener('install-button:install-success', onSuccess);
    element.addEventListener('install-button:install-error', onError);
    return () => {
      element.removeEventListener('install-button:install-success', onSuccess);
      element.removeEventListener('install-button:install-error', onError);
    };
  }, []);
  return (
    <>
      <mp-install-button ref={button} plugin-id={pluginId} api-base={MARKETPLACE} />
      <p role="status">{lastResult}</p>
    </>
  );
}

function App() {
  return (
    <main style={{ font: '16px/1.5 system-ui, sans-serif', maxWidth: 720, margin: '2rem auto' }}>
      <h1>A React app with marketplace widgets</h1>
      <mp-plugin-card plugin-id={pluginId} api-base={MARKETPLACE} />
      <h2>Install</h2>
      <InstallWithFeedback />
      <h2>AI assistant</h2>
      <mp-ai-button plugin-id={aiPluginId} api-base={MARKETPLACE} button-text="Try the assistant for free" />
      {courseId ? (
        <>
          <h2>Course</h2>
          <mp-open-course plugin-id={courseId} api-base={MARKETPLACE} />
        </>
      ) : null}
    </main>
  );
}

const root = document.getElementById('app');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
