// Which marketplace these pages use: `?marketplace=` in the page's address (serve.mjs adds the one it was
// started with, MARKETPLACE), else the one `pnpm start` runs. Loaded by a plain <script src> in the <head>;
// with data-sdk="mp-widget.js" it also loads that SDK file from the marketplace once the page is parsed
// (as `defer` would), after the page's own scripts have set up its elements.
(() => {
  const DEFAULT_MARKETPLACE = 'http://localhost:8080';

  function marketplaceOrigin() {
    const given = new URLSearchParams(location.search).get('marketplace');
    if (!given) return DEFAULT_MARKETPLACE;
    try {
      const url = new URL(given);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // not an address: the default below
    }
    console.warn(`?marketplace=${given} is not an http(s) address; using ${DEFAULT_MARKETPLACE}.`);
    return DEFAULT_MARKETPLACE;
  }

  const origin = marketplaceOrigin();
  window.MARKETPLACE = origin;

  const sdk = document.currentScript?.dataset.sdk;
  if (!sdk) return;
  document.addEventListener('DOMContentLoaded', () => {
    const script = document.createElement('script');
    script.src = `${origin}/sdk/${sdk}`;
    document.head.append(script);
  });
})();
