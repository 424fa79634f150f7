import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { STAR_RATING_SIZES, StarRating } from './StarRating';

const meta = {
  title: 'Components/Star rating',
  component: StarRating,
  args: { value: 3.5, size: 'm' },
  argTypes: {
    value: { control: { type: 'range', min: 0, max: 5, step: 0.1 } },
    size: { control: 'inline-radio', options: STAR_RATING_SIZES },
  },
} satisfies Meta<typeof StarRating>;
export default meta;
type Story = StoryObj<typeof meta>;

export const PartlyFilled: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('img', { name: 'Rated 3.5 out of 5' })).toBeTruthy();
  },
};

export const Unrated: Story = { args: { value: 0 } };

export const Full: Story = { args: { value: 5 } };

export const AllSizes: Story = {
  render: (args) => (
    <div style={{ display: 'grid', gap: 12 }}>
      {STAR_RATING_SIZES.map((size) => (
        <div key={size} style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
          <code style={{ width: 24 }}>{size}</code>
          <StarRating {...args} size={size} />
        </div>
      ))}
    </div>
  ),
  args: { value: 4.3 },
};
