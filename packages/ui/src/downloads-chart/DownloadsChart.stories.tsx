import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { SAMPLE_DOWNLOADS } from '../storybook/sample-data';
import { DownloadsChart } from './DownloadsChart';

const meta = {
  title: 'Components/Downloads chart',
  component: DownloadsChart,
  decorators: [(Story) => <div style={{ width: 360 }}>{Story()}</div>],
} satisfies Meta<typeof DownloadsChart>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { status: 'pending' } };

export const Unavailable: Story = { args: { status: 'rejected' } };

export const ThirtyDays: Story = {
  args: { status: 'resolved', points: SAMPLE_DOWNLOADS },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('listitem')).toHaveLength(30);
  },
};

export const NoDownloadsYet: Story = {
  args: { status: 'resolved', points: SAMPLE_DOWNLOADS.map((point) => ({ ...point, value: 0 })) },
};
