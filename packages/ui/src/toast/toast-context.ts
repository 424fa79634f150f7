import { createContext, useContext } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastOptions {
  kind: ToastKind;
  title: string;
  message?: string;
  /** Keep on screen until closed, even when it is not an error. */
  keep?: boolean;
}

export interface Toast extends ToastOptions {
  id: number;
}

export interface ToastApi {
  /** Shows a toast and returns its id. */
  show(toast: ToastOptions): number;
  dismiss(id: number): void;
}

export const ToastContext = createContext<ToastApi | null>(null);

/** The toasts of the nearest `ToastProvider`, or null outside one. */
export function useToasts(): ToastApi | null {
  return useContext(ToastContext);
}
