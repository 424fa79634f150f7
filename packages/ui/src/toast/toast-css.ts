/**
 * ToastProvider's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const toastStyles = `
.mp-toasts {
  position: fixed; right: 16px; bottom: 16px; z-index: 2147483000;
  display: flex; flex-direction: column; gap: 8px; width: min(360px, calc(100vw - 32px));
  margin: 0; padding: 0; pointer-events: none;
}
.mp-toast {
  display: flex; align-items: flex-start; gap: 12px; box-sizing: border-box; padding: 12px 12px 12px 16px;
  border-radius: var(--mp-radius); background: var(--mp-toast-bg); color: var(--mp-toast-text);
  box-shadow: var(--mp-shadow); font: 14px/20px var(--mp-font); pointer-events: auto;
  border-left: 4px solid var(--mp-accent);
}
.mp-toast--success { border-left-color: #3bb273; }
.mp-toast--error { border-left-color: #f0524f; }
.mp-toast__body { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.mp-toast__title { margin: 0; font-weight: 600; }
.mp-toast__message { margin: 2px 0 0; color: rgba(255, 255, 255, 0.8); }
.mp-toast__close {
  flex: none; width: 24px; height: 24px; padding: 0; border: 0; border-radius: 4px;
  background: transparent; color: rgba(255, 255, 255, 0.7); font-size: 18px; line-height: 24px; cursor: pointer;
}
.mp-toast__close:hover { color: #fff; background: rgba(255, 255, 255, 0.12); }
.mp-toast__close:focus-visible { outline: 2px solid var(--mp-accent); }
`;
