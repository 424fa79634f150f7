import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { SAMPLE_IDES } from '../../packages/ui/src/ide/memory-ide-bridge';
import type { ElementStoryArgs } from './element-story';
import { renderElement, shadowOf, STORY_ITEMS } from './element-story';

/** `<mp-install-button>` as a page shows it, with the IDEs the visitor has running. */
const meta = {
  title: 'Elements/mp-install-button',
  render: renderElement,
  // One story per canvas: the elements share one IDE bridge per page (element-story.tsx).
  tags: ['!autodocs'],
  args: { tag: 'mp-install-button', attributes: { 'plugin-id': STORY_ITEMS.plugin }, ides: {} },
} satisfies Meta<ElementStoryArgs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NoIde: Story = {
  play: async ({ canvasElement }) => {
    const root = await shadowOf(canvasElement, 'mp-install-button', 'Get from Marketplace');
    await expect(within(root).getByRole('link', { name: 'Get from Marketplace' })).toBeTruthy();
  },
};

export const OneIde: Story = { args: { ides: { ides: [SAMPLE_IDES.idea] } } };

export const SeveralIdes: Story = {
  args: { ides: { ides: [SAMPLE_IDES.idea, SAMPLE_IDES.pycharm, SAMPLE_IDES.goland] } },
};

export const InstallSucceeds: Story = {
  args: { ides: { ides: [SAMPLE_IDES.idea] } },
  play: async ({ canvasElement }) => {
    const root = within(
      await shadowOf(canvasElement, 'mp-install-button', 'Install to IntelliJ IDEA 2025.2'),
    );
    await userEvent.click(root.getByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    await expect((await root.findByRole('status')).textContent).toContain(
      'Check your IDE - IntelliJ IDEA 2025.2',
    );
  },
};

export const InstallFails: Story = {
  args: { ides: { ides: [SAMPLE_IDES.pycharm], install: 'fail' } },
  play: async ({ canvasElement }) => {
    const root = within(await shadowOf(canvasElement, 'mp-install-button', 'Install to PyCharm 2025.2'));
    await userEvent.click(root.getByRole('button', { name: 'Install to PyCharm 2025.2' }));
    await expect((await root.findByRole('alert')).textContent).toContain('Oops');
  },
};

/** The IDE asks its user whether to trust the page, and nobody has answered yet. */
export const ConfirmInIde: Story = { args: { ides: { ides: [SAMPLE_IDES.idea], discoveryAsks: true } } };
