import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { RemotePluginCard } from './RemotePluginCard';

/**
 * The card as embedded pages use it: it reads the item (with its 30-day chart) from the marketplace API. In
 * Storybook the "marketplace" is Storybook's own static folder (stories/public), which holds answers in
 * the API's shape at the API's paths.
 */
function storybookOrigin(): string {
  return new URL('.', window.location.href).toString();
}

const meta = {
  title: 'Components/Plugin card (from the API)',
  component: RemotePluginCard,
  args: { apiBase: '', pluginId: 10080, newWindow: true },
  decorators: [(Story) => <div style={{ width: 380 }}>{Story()}</div>],
} satisfies Meta<typeof RemotePluginCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loaded: Story = {
  render: (args) => <RemotePluginCard {...args} apiBase={storybookOrigin()} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('article', { name: 'Rainbow Brackets' })).toBeTruthy();
    await waitFor(() => expect(canvas.getAllByRole('listitem', { name: /downloads$/ })).toHaveLength(30));
  },
};

/** The marketplace cannot be reached (offline visitor, server down): the host page shows no broken card. */
export const Offline: Story = {
  args: { apiBase: 'http://127.0.0.1:9' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.queryByRole('status')).toBeNull(), { timeout: 5000 });
    await expect(canvas.queryByRole('article')).toBeNull();
  },
};
