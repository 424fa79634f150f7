import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { LAUNCH_IDE_HINT, OPEN_COURSE } from '../../packages/core/src/texts';
import { SAMPLE_IDES } from '../../packages/ui/src/ide/memory-ide-bridge';
import type { ElementStoryArgs } from './element-story';
import { renderElement, shadowOf, STORY_ITEMS } from './element-story';

/** `<mp-open-course>`: opens a Python course in an IDE that can run it. */
const meta = {
  title: 'Elements/mp-open-course',
  render: renderElement,
  // One story per canvas: the elements share one IDE bridge per page (element-story.tsx).
  tags: ['!autodocs'],
  args: { tag: 'mp-open-course', attributes: { 'plugin-id': STORY_ITEMS.course }, ides: {} },
} satisfies Meta<ElementStoryArgs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NoIde: Story = {
  play: async ({ canvasElement }) => {
    const root = within(await shadowOf(canvasElement, 'mp-open-course', LAUNCH_IDE_HINT));
    await expect(root.getByRole('button', { name: OPEN_COURSE }).hasAttribute('disabled')).toBe(true);
  },
};

export const CompatibleIde: Story = { args: { ides: { ides: [SAMPLE_IDES.pycharm] } } };

export const Opening: Story = {
  args: { ides: { ides: [SAMPLE_IDES.pycharm], openCourse: 'hang' } },
  play: async ({ canvasElement }) => {
    const root = within(await shadowOf(canvasElement, 'mp-open-course', OPEN_COURSE));
    const button = root.getByRole('button', { name: OPEN_COURSE });
    await userEvent.click(button);
    await waitFor(() =>
      expect(root.getAllByRole('button').some((shown) => shown.getAttribute('aria-busy') === 'true')).toBe(
        true,
      ),
    );
  },
};
