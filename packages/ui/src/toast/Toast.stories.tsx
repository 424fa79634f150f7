import { installFailureToast, installSuccessToast } from '@marketplace/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import type { ToastOptions } from './toast-context';
import { useToasts } from './toast-context';
import { ToastProvider } from './ToastProvider';

function Shows({ toasts }: { toasts: ToastOptions[] }) {
  const api = useToasts();
  useEffect(() => {
    const ids = toasts.map((toast) => api?.show(toast));
    return () => ids.forEach((id) => id !== undefined && api?.dismiss(id));
  }, [api, toasts]);
  return null;
}

function ToastDemo({ toasts }: { toasts: ToastOptions[] }) {
  return (
    <ToastProvider>
      <Shows toasts={toasts} />
    </ToastProvider>
  );
}

const meta = {
  title: 'Components/Toast',
  component: ToastDemo,
  parameters: { layout: 'fullscreen' },
  decorators: [(Story) => <div style={{ minHeight: 320 }}>{Story()}</div>],
} satisfies Meta<typeof ToastDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Success: Story = {
  args: { toasts: [{ kind: 'success', ...installSuccessToast('IntelliJ IDEA 2025.2'), keep: true }] },
};

export const Failure: Story = {
  args: { toasts: [{ kind: 'error', ...installFailureToast('PyCharm 2025.2') }] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert').textContent).toContain('Oops');
    await userEvent.click(canvas.getByRole('button', { name: 'Close' }));
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

export const Stacked: Story = {
  args: {
    toasts: [
      { kind: 'success', ...installSuccessToast('GoLand 2025.2'), keep: true },
      { kind: 'error', ...installFailureToast('PyCharm 2025.2') },
    ],
  },
};
