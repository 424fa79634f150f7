import type { Meta, StoryObj } from '@storybook/react-vite';
import { OPEN_COURSE } from '../../packages/core/src/texts';
import { SAMPLE_IDES } from '../../packages/ui/src/ide/memory-ide-bridge';
import type { ElementStoryArgs } from './element-story';
import { renderElement, shadowOf, STORY_ITEMS } from './element-story';

/** `<mp-course-lti>`: the course button an LMS embeds, with the launch's details for the IDE. */
const meta = {
  title: 'Elements/mp-course-lti',
  render: renderElement,
  // One story per canvas: the elements share one IDE bridge per page (element-story.tsx).
  tags: ['!autodocs'],
  args: {
    tag: 'mp-course-lti',
    attributes: {
      'plugin-id': STORY_ITEMS.course,
      'launch-id': 'lti-launch-2f6c1a',
      'study-item-id': 'lesson-3-task-1',
      'lms-description': 'Introduction to Python, week 3',
    },
    ides: { ides: [SAMPLE_IDES.pycharm] },
  },
} satisfies Meta<ElementStoryArgs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const CompatibleIde: Story = {
  play: async ({ canvasElement }) => {
    await shadowOf(canvasElement, 'mp-course-lti', OPEN_COURSE);
  },
};

export const NoIde: Story = { args: { ides: {} } };
