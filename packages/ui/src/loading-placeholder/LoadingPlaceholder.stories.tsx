import type { Meta, StoryObj } from '@storybook/react-vite';
import { LoadingPlaceholder } from './LoadingPlaceholder';

const meta = {
  title: 'Components/Loading placeholder',
  component: LoadingPlaceholder,
  decorators: [(Story) => <div style={{ width: 360 }}>{Story()}</div>],
} satisfies Meta<typeof LoadingPlaceholder>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ThreeLines: Story = {};

export const FourLines: Story = { args: { lines: 4 } };
