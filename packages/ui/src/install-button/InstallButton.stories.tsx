import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { InstallButton } from './InstallButton';

const meta = {
  title: 'Components/Install button',
  component: InstallButton,
  args: {
    pluginXmlId: 'izhangzhihao.rainbow.brackets',
    pluginUrl: 'https://plugins.example.com/plugin/10080-rainbow-brackets',
  },
  decorators: [(Story) => <div style={{ minHeight: 220 }}>{Story()}</div>],
} satisfies Meta<typeof InstallButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const LookingForIdes: Story = { args: { bridge: createMemoryIdeBridge({ discoveryHangs: true }) } };

/** Chromium asks the visitor before a page may reach their machine: nothing is probed until they click. */
export const AwaitingLocalNetworkAccess: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], localNetworkAccess: 'prompt' }) },
};

export const NoIde: Story = {
  args: { bridge: createMemoryIdeBridge() },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByRole('link', { name: 'Get from Marketplace' }),
    ).toBeTruthy();
  },
};

export const OneIde: Story = { args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea] }) } };

export const SeveralIdes: Story = {
  args: {
    bridge: createMemoryIdeBridge({
      ides: [SAMPLE_IDES.idea, SAMPLE_IDES.ideaSecondCopy, SAMPLE_IDES.pycharm],
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Install to IDE' }));
    await waitFor(() => expect(canvas.getByRole('menu').getAttribute('data-state')).toBe('open'));
  },
};

export const Installing: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland], install: 'hang' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const button = await canvas.findByRole('button', { name: 'Install to GoLand 2025.2' });
    await userEvent.click(button);
    await expect(button.getAttribute('aria-busy')).toBe('true');
  },
};

export const Success: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea] }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    await expect((await canvas.findByRole('status')).textContent).toContain(
      'Check your IDE - IntelliJ IDEA 2025.2',
    );
  },
};

export const Failure: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], install: 'fail' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Install to PyCharm 2025.2' }));
    await expect((await canvas.findByRole('alert')).textContent).toContain('Oops');
  },
};

/** The IDE asks its user whether to trust this site before it answers the install; nobody has answered yet. */
export const ConfirmInIde: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], install: 'ask' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    const button = await canvas.findByRole('button', { name: 'Confirm in your IDE' });
    await expect(button.getAttribute('aria-busy')).toBe('true');
  },
};

/** The IDE asks whether to trust this site as soon as the page looks for it. */
export const IdeAsksBeforeAnswering: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], discoveryAsks: true }) },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByRole('button', { name: 'Confirm in your IDE' }),
    ).toBeTruthy();
  },
};

/** Installed into an IDE that does not know the plugin: it is only on this marketplace. */
export const AddThisMarketplaceToTheIde: Story = {
  args: {
    bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], compatiblePluginXmlIds: [] }),
    marketplaceUrl: 'https://plugins.example.com',
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    const hint = await canvas.findByRole('note');
    await expect(hint.textContent).toContain('Manage Plugin Repositories');
    await expect(canvas.getByRole<HTMLInputElement>('textbox').value).toBe(
      'https://plugins.example.com/plugins/list',
    );
  },
};
