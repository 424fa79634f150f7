import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ElementStoryArgs } from './element-story';
import { renderElement, shadowOf, STORY_ITEMS } from './element-story';

/** `<mp-plugin-card>`: the item's card, drawn from the marketplace's answer. It needs no IDE. */
const meta = {
  title: 'Elements/mp-plugin-card',
  render: renderElement,
  // One story per canvas: the elements share one IDE bridge per page (element-story.tsx).
  tags: ['!autodocs'],
  args: { tag: 'mp-plugin-card', attributes: { 'plugin-id': STORY_ITEMS.plugin }, ides: {} },
} satisfies Meta<ElementStoryArgs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Plugin: Story = {
  play: async ({ canvasElement }) => {
    await shadowOf(canvasElement, 'mp-plugin-card', 'Rainbow Brackets');
  },
};

export const Course: Story = {
  args: { attributes: { 'plugin-id': STORY_ITEMS.course } },
  play: async ({ canvasElement }) => {
    await shadowOf(canvasElement, 'mp-plugin-card', 'Introduction to Python');
  },
};
