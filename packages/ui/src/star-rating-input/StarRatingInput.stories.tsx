import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import type { StarRatingInputProps } from './StarRatingInput';
import { StarRatingInput } from './StarRatingInput';

function Stateful(props: StarRatingInputProps) {
  const [value, setValue] = useState(props.value);
  return <StarRatingInput {...props} value={value} onChange={setValue} />;
}

const meta = {
  title: 'Components/Star rating input',
  component: StarRatingInput,
  render: (args) => <Stateful {...args} />,
  args: { label: 'Your rating', value: 0, onChange: () => undefined },
} satisfies Meta<typeof StarRatingInput>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const WithNote: Story = { args: { note: 'Rate the plugin from 1 to 5 stars', value: 3 } };

export const WithError: Story = { args: { error: 'Please choose a rating before sending your review' } };

export const Disabled: Story = { args: { value: 4, disabled: true, note: 'Sign in to rate this plugin' } };

export const Choosing: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('radio', { name: '4 stars' }));
    await expect((canvas.getByRole('radio', { name: '4 stars' }) as HTMLInputElement).checked).toBe(true);
  },
};
