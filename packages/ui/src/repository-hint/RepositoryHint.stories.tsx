import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { RepositoryHint } from './RepositoryHint';

const meta = {
  title: 'Components/Repository hint',
  component: RepositoryHint,
  args: { ideName: 'IntelliJ IDEA 2025.2', repositoryUrl: 'https://plugins.example.com/plugins/list' },
} satisfies Meta<typeof RepositoryHint>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Shown by the install buttons after installing an item the IDE reads from no repository yet. */
export const AfterAnInstall: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole<HTMLInputElement>('textbox').value).toBe(
      'https://plugins.example.com/plugins/list',
    );
    await expect(canvas.getByRole('button', { name: 'Copy' })).toBeTruthy();
  },
};
