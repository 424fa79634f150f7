import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { CourseLtiButton, OpenCourseButton } from './CourseButton';

const meta = {
  title: 'Components/Course buttons',
  component: OpenCourseButton,
  args: { courseId: 16630, language: 'Python', bridge: createMemoryIdeBridge() },
} satisfies Meta<typeof OpenCourseButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NoIdeDisabled: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Please launch your IDE and refresh the page')).toBeTruthy();
    await expect((canvas.getByRole('button', { name: 'Open course' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  },
};

export const WrongIdeDisabled: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland] }) },
};

export const AwaitingLocalNetworkAccess: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], localNetworkAccess: 'prompt' }) },
};

/** The IDE asks its user whether to trust this site before it answers the page's search. */
export const IdeAsksBeforeAnswering: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], discoveryAsks: true }) },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByRole('button', { name: 'Confirm in your IDE' }),
    ).toBeTruthy();
  },
};

export const IdeRunning: Story = { args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm] }) } };

export const Opening: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], openCourse: 'hang' }) },
  play: async ({ canvasElement }) => {
    const button = await within(canvasElement).findByTitle('Open course - PyCharm 2025.2');
    button.click();
    await expect(await within(canvasElement).findByRole('button', { busy: true })).toBeTruthy();
  },
};

export const Lti: Story = {
  render: (args) => (
    <CourseLtiButton language={args.language} bridge={args.bridge} launch={{ marketplaceCourseId: 16630 }} />
  ),
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea] }), language: 'JAVA' },
};

export const LtiNoIde: Story = {
  render: (args) => (
    <CourseLtiButton language={args.language} bridge={args.bridge} launch={{ marketplaceCourseId: 16630 }} />
  ),
};
