import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DropdownMenu } from './DropdownMenu';

const items = [
  {
    id: 'idea-1',
    label: 'IU-252.23892.409 (port 63342)',
    group: 'IntelliJ IDEA 2025.2',
    onSelect: () => undefined,
  },
  {
    id: 'idea-2',
    label: 'IU-252.26830.84 (port 63343)',
    group: 'IntelliJ IDEA 2025.2',
    onSelect: () => undefined,
  },
  { id: 'pycharm', label: 'PyCharm 2025.2', onSelect: () => undefined },
  { id: 'goland', label: 'GoLand 2025.2', onSelect: () => undefined, disabled: true },
];

const meta = {
  title: 'Components/Dropdown menu',
  component: DropdownMenu,
  args: { trigger: 'Install to IDE', label: 'Choose an IDE', items },
  decorators: [(Story) => <div style={{ minHeight: 260 }}>{Story()}</div>],
} satisfies Meta<typeof DropdownMenu>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {};

export const Open: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Install to IDE' }));
    await waitFor(() => expect(canvas.getByRole('menu').getAttribute('data-state')).toBe('open'));
    await expect(canvas.getByRole('group', { name: 'IntelliJ IDEA 2025.2' })).toBeTruthy();
  },
};

export const Busy: Story = { args: { busy: true, trigger: 'Installing to PyCharm 2025.2' } };
