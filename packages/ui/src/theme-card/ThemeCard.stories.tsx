import type { Meta, StoryObj } from '@storybook/react-vite';
import { SAMPLE_NOW, SAMPLE_THEME, SAMPLE_THEME_IMAGE } from '../storybook/sample-data';
import { ThemeCard, ThemeCardSkeleton } from './ThemeCard';

const meta = {
  title: 'Components/Theme card',
  component: ThemeCard,
  args: { item: SAMPLE_THEME, imageUrl: SAMPLE_THEME_IMAGE, now: SAMPLE_NOW },
} satisfies Meta<typeof ThemeCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithoutScreenshot: Story = { args: { imageUrl: undefined } };

export const Skeleton: Story = { render: () => <ThemeCardSkeleton /> };
