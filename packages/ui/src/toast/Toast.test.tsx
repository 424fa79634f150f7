import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TOAST_AUTO_CLOSE_MS } from '@marketplace/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToastOptions } from './toast-context';
import { useToasts } from './toast-context';
import { ToastProvider } from './ToastProvider';

function ShowButton({ toast }: { toast: ToastOptions }) {
  const toasts = useToasts();
  return (
    <button type="button" onClick={() => toasts?.show(toast)}>
      Show
    </button>
  );
}

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());
  const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

  it('announce success politely and close by themselves after 5 seconds', async () => {
    render(
      <ToastProvider>
        <ShowButton toast={{ kind: 'success', title: 'Success', message: 'Check your IDE - GoLand' }} />
      </ToastProvider>,
    );
    await user().click(screen.getByRole('button', { name: 'Show' }));
    const toast = screen.getByRole('status');
    expect(toast.textContent).toContain('Success');
    expect(toast.textContent).toContain('Check your IDE - GoLand');
    act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS - 100));
    expect(screen.queryByRole('status')).not.toBeNull();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('keep errors on screen until closed', async () => {
    render(
      <ToastProvider>
        <ShowButton toast={{ kind: 'error', title: 'Oops', message: 'Installation failed' }} />
      </ToastProvider>,
    );
    await user().click(screen.getByRole('button', { name: 'Show' }));
    act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS * 10));
    expect(screen.getByRole('alert').textContent).toContain('Oops');
    await user().click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stay when asked to, and stack in the bottom-right list', async () => {
    render(
      <ToastProvider>
        <ShowButton toast={{ kind: 'info', title: 'Saved', keep: true }} />
      </ToastProvider>,
    );
    await user().click(screen.getByRole('button', { name: 'Show' }));
    await user().click(screen.getByRole('button', { name: 'Show' }));
    act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS * 2));
    expect(screen.getAllByRole('status')).toHaveLength(2);
    expect(document.querySelector('.mp-toasts')?.children).toHaveLength(2);
  });
});
