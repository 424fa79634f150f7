import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { AI_BUTTON_SIZES, AiButton } from './AiButton';

const meta = {
  title: 'Components/AI button',
  component: AiButton,
  args: {
    pluginXmlId: 'com.intellij.ml.llm',
    pluginUrl: 'https://plugins.example.com/plugin/22282-ai-assistant',
    bridge: createMemoryIdeBridge(),
  },
  argTypes: { buttonSize: { control: 'inline-radio', options: AI_BUTTON_SIZES } },
} satisfies Meta<typeof AiButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NoCompatibleIde: Story = {
  play: async ({ canvasElement }) => {
    const link = await within(canvasElement).findByRole('link', { name: 'Try for free' });
    await expect(new URL(link.getAttribute('href') ?? '').searchParams.get('medium')).toBe('ai-button');
  },
};

export const IdeRunning: Story = { args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea] }) } };

export const Installing: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], install: 'hang' }) },
  play: async ({ canvasElement }) => {
    const button = await within(canvasElement).findByRole('button', { name: 'Try for free' });
    await userEvent.click(button);
    await expect(button.getAttribute('aria-busy')).toBe('true');
  },
};

/** The IDE stopped answering: the IDE list is cleared and the button is a link again. */
export const InstallFailure: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], install: 'fail' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Try for free' }));
    await expect(await canvas.findByRole('link', { name: 'Try for free' })).toBeTruthy();
  },
};

export const Sizes: Story = {
  render: (args) => (
    <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
      {AI_BUTTON_SIZES.map((size) => (
        <AiButton key={size} {...args} buttonSize={size} />
      ))}
    </div>
  ),
};

export const LongTextMultiline: Story = {
  args: { buttonText: 'Install the AI Assistant into your IDE and try it for free', allowMultiline: true },
  decorators: [(Story) => <div style={{ width: 220 }}>{Story()}</div>],
};

export const LongTextSingleLine: Story = {
  args: { buttonText: 'Install the AI Assistant into your IDE and try it for free', allowMultiline: false },
};

/** The IDE asks its user whether to trust this site before it answers the install; nobody has answered yet. */
export const ConfirmInIde: Story = {
  args: { bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], install: 'ask' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Try for free' }));
    await expect(await canvas.findByRole('button', { name: 'Confirm in your IDE' })).toBeTruthy();
  },
};

/**
 * An item only this marketplace has: the IDE does not know it and says "not compatible", the marketplace
 * says a version fits the IDE's build, and after the install the button says how to add the marketplace.
 */
export const OnlyOnThisMarketplace: Story = {
  args: {
    bridge: createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], compatiblePluginXmlIds: [] }),
    marketplaceUrl: globalThis.location.origin,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Try for free' }));
    await expect((await canvas.findByRole('note')).textContent).toContain('Manage Plugin Repositories');
  },
};
