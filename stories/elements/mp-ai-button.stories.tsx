import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { SAMPLE_IDES } from '../../packages/ui/src/ide/memory-ide-bridge';
import type { ElementStoryArgs } from './element-story';
import { renderElement, shadowOf, STORY_ITEMS } from './element-story';

/** `<mp-ai-button>`: installs an AI assistant plugin, with the text and size the page chose. */
const meta = {
  title: 'Elements/mp-ai-button',
  render: renderElement,
  // One story per canvas: the elements share one IDE bridge per page (element-story.tsx).
  tags: ['!autodocs'],
  args: {
    tag: 'mp-ai-button',
    attributes: {
      'plugin-id': STORY_ITEMS.plugin,
      'button-text': 'Try the assistant for free',
      'button-size': 'l',
    },
    ides: { ides: [SAMPLE_IDES.idea] },
  },
} satisfies Meta<ElementStoryArgs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const OneIde: Story = {
  play: async ({ canvasElement }) => {
    await shadowOf(canvasElement, 'mp-ai-button', 'Try the assistant for free');
  },
};

export const NoIde: Story = { args: { ides: {} } };

export const Installing: Story = {
  args: { ides: { ides: [SAMPLE_IDES.idea], install: 'hang' } },
  play: async ({ canvasElement }) => {
    const root = within(await shadowOf(canvasElement, 'mp-ai-button', 'Try the assistant for free'));
    const button = root.getByRole('button', { name: 'Try the assistant for free' });
    await userEvent.click(button);
    await waitFor(() =>
      expect(root.getAllByRole('button').some((shown) => shown.getAttribute('aria-busy') === 'true')).toBe(
        true,
      ),
    );
  },
};
