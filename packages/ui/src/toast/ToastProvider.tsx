import { TOAST_AUTO_CLOSE_MS } from '@marketplace/core';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Toast, ToastApi, ToastOptions } from './toast-context';
import { ToastContext } from './toast-context';

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
