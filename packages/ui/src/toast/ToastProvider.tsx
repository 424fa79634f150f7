import { TOAST_AUTO_CLOSE_MS } from '@marketplace/core';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Toast, ToastApi, ToastOptions } from './toast-context';
import { ToastContext } from './toast-context';

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

/** Errors stay until the visitor closes them; anything else closes by itself unless asked to stay. */
function closesByItself(toast: ToastOptions): boolean {
  return toast.kind !== 'error' && !toast.keep;
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  useEffect(() => {
    if (!closesByItself(toast)) return undefined;
    const timer = setTimeout(() => onClose(toast.id), TOAST_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [toast, onClose]);
  const isError = toast.kind === 'error';
  return (
    <div
      className={`mp-toast mp-toast--${toast.kind}`}
      role={isError ? 'alert' : 'status'}
      aria-live={isError ? 'assertive' : 'polite'}
      aria-atomic="true"
    >
      <div className="mp-toast__body">
        <p className="mp-toast__title">{toast.title}</p>
        {toast.message ? <p className="mp-toast__message">{toast.message}</p> : null}
      </div>
      <button type="button" className="mp-toast__close" aria-label="Close" onClick={() => onClose(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Holds the toasts of everything inside it and shows them in the bottom-right corner. */
export function ToastProvider({ children }: { children?: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);
  const api = useMemo<ToastApi>(
    () => ({
      show(options) {
        const id = nextId.current++;
        setToasts((current) => [...current, { ...options, id }]);
        return id;
      },
      dismiss,
    }),
    [dismiss],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      {toasts.length > 0 ? (
        <div className="mp-toasts">
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onClose={dismiss} />
          ))}
        </div>
      ) : null}
    </ToastContext.Provider>
  );
}
