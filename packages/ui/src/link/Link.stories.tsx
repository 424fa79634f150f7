import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Link } from './Link';

const meta = {
  title: 'Components/Link',
  component: Link,
  args: { href: '/plugin/10080-rainbow-brackets', children: 'Rainbow Brackets' },
} satisfies Meta<typeof Link>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Internal: Story = {};

export const External: Story = {
  args: { href: 'https://github.com/izhangzhihao/intellij-rainbow-brackets', children: 'Source code' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link').getAttribute('target')).toBe('_blank');
  },
};

export const KeepsQuery: Story = {
  args: {
    href: '/search',
    keepQuery: true,
    currentSearch: '?search=git&orderBy=downloads',
    children: 'Back to results',
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link').getAttribute('href')).toBe(
      '/search?search=git&orderBy=downloads',
    );
  },
};
