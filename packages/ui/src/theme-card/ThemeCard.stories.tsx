import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { SAMPLE_DOWNLOADS, SAMPLE_NOW, SAMPLE_THEME, SAMPLE_THEME_IMAGE } from '../storybook/sample-data';
import { ThemeCard, ThemeCardSkeleton } from './ThemeCard';

const meta = {
  title: 'Components/Theme card',
  component: ThemeCard,
  args: { item: SAMPLE_THEME, imageUrl: SAMPLE_THEME_IMAGE, now: SAMPLE_NOW },
} satisfies Meta<typeof ThemeCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** As lists show it: the 30-day download chart below the screenshot. */
export const WithDownloadsChart: Story = {
  args: { item: { ...SAMPLE_THEME, downloadStatistics: SAMPLE_DOWNLOADS } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('listitem', { name: /downloads$/ })).toHaveLength(30);
    await expect(canvas.getByText(/downloads in the last 30 days$/)).toBeTruthy();
  },
};

export const WithoutScreenshot: Story = { args: { imageUrl: undefined } };

export const Skeleton: Story = { render: () => <ThemeCardSkeleton /> };
