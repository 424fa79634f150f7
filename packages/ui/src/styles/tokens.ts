import { BRAND_ACCENT_COLOR } from '@marketplace/core';

/**
 * Design tokens as CSS custom properties on `:host` (inside a custom element's shadow root) and on
 * `.mp-root` (anywhere else), so a host page can override them without reaching into our markup.
 */
export const tokenStyles = `
:host, .mp-root {
  --mp-accent: ${BRAND_ACCENT_COLOR};
  /* The brand accent darkened just enough for white text on it and for text on white (WCAG AA, 4.5:1). */
  --mp-accent-strong: #0b6ee6;
  --mp-accent-hover: #0a5fc7;
  --mp-accent-soft: rgba(22, 125, 255, 0.12);
  --mp-text: #19191c;
  --mp-text-secondary: #5b5b66;
  --mp-border: #d1d1d6;
  --mp-surface: #ffffff;
  --mp-skeleton: #e8e8ec;
  --mp-skeleton-shine: #f4f4f6;
  --mp-danger: #d32f2f;
  --mp-star: #f5a623;
  --mp-star-empty: #d1d1d6;
  --mp-toast-bg: #27282c;
  --mp-toast-text: #ffffff;
  --mp-radius: 6px;
  --mp-shadow: 0 4px 16px rgba(0, 0, 0, 0.16);
  --mp-font: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-family: var(--mp-font);
  color: var(--mp-text);
}
.mp-visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
.mp-button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  box-sizing: border-box; min-height: 32px; padding: 0 14px; border: 1px solid transparent;
  border-radius: var(--mp-radius); background: var(--mp-accent-strong); color: #fff;
  font: 500 14px/20px var(--mp-font); text-decoration: none; white-space: nowrap; cursor: pointer;
  transition: background-color 120ms ease;
}
.mp-button:hover { background: var(--mp-accent-hover); }
.mp-button:focus-visible { outline: 2px solid var(--mp-accent); outline-offset: 2px; }
.mp-button[aria-disabled='true'], .mp-button:disabled {
  background: var(--mp-skeleton); color: var(--mp-text-secondary); cursor: not-allowed;
}
.mp-button[aria-busy='true'] { cursor: progress; opacity: 0.8; }
.mp-button--secondary { background: var(--mp-surface); color: var(--mp-accent-strong); border-color: var(--mp-accent-strong); }
.mp-button--secondary:hover { background: var(--mp-accent-soft); }
.mp-spinner {
  width: 14px; height: 14px; border: 2px solid currentColor; border-right-color: transparent;
  border-radius: 50%; animation: mp-spin 700ms linear infinite;
}
@keyframes mp-spin { to { transform: rotate(360deg); } }
@keyframes mp-shimmer { from { background-position: 200% 0; } to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) {
  .mp-spinner { animation-duration: 2s; }
}
`;
