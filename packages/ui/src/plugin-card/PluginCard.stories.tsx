import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { DownloadsChart } from '../downloads-chart/DownloadsChart';
import { SAMPLE_DOWNLOADS, SAMPLE_NOW, SAMPLE_PLUGIN } from '../storybook/sample-data';
import { PluginCard, PluginCardSkeleton } from './PluginCard';

const meta = {
  title: 'Components/Plugin card',
  component: PluginCard,
  args: { item: SAMPLE_PLUGIN, now: SAMPLE_NOW },
  decorators: [(Story) => <div style={{ width: 380 }}>{Story()}</div>],
} satisfies Meta<typeof PluginCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithDownloadsChart: Story = {
  args: { item: { ...SAMPLE_PLUGIN, downloadStatistics: SAMPLE_DOWNLOADS } },
};

export const ChartLoading: Story = { args: { chart: <DownloadsChart status="pending" /> } };

export const ChartUnavailable: Story = { args: { chart: <DownloadsChart status="rejected" /> } };

export const NoDescriptionNoIcon: Story = {
  args: { item: { ...SAMPLE_PLUGIN, icon: '', preview: '', downloads: 0, rating: 0, pricingModel: 'FREE' } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Description is not provided')).toBeTruthy();
  },
};

export const Paid: Story = { args: { item: { ...SAMPLE_PLUGIN, pricingModel: 'PAID', rating: 3.2 } } };

export const EmbeddedOpensNewWindow: Story = {
  args: { baseUrl: 'https://plugins.example.com', newWindow: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link').getAttribute('target')).toBe('_blank');
  },
};

export const Skeleton: Story = { render: () => <PluginCardSkeleton /> };
