import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RUNNING_IDE_POLL_INTERVAL_MS } from '@marketplace/core';
import type { WidgetMessage } from '@marketplace/protocol';
import { isWidgetMessage } from '@marketplace/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { AiButton } from './AiButton';

const xmlId = 'com.example.ai';
const pluginUrl = 'https://plugins.example.com/plugin/22282-ai-assistant';

describe('AiButton', () => {
  let messages: WidgetMessage[];
  beforeEach(() => {
    messages = [];
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => vi.useRealTimers());
  const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const types = () => messages.map((message) => message.type);

  it('links to the plugins site with tracking parameters while no compatible IDE runs', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland], compatiblePluginXmlIds: [] });
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        trackingSource="docs"
        onMessage={(message) => messages.push(message)}
      />,
    );
    await act(async () => {});
    const link = screen.getByRole('link', { name: 'Try for free' });
    const url = new URL(link.getAttribute('href') ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(pluginUrl);
    expect(url.searchParams.get('source')).toBe('docs');
    expect(url.searchParams.get('medium')).toBe('ai-button');
    expect(url.searchParams.get('content')).toBe('Try for free');
    expect(link.getAttribute('target')).toBe('_blank');
    link.addEventListener('click', (event) => event.preventDefault());
    await user().click(link);
    expect(types()).toEqual([
      'ai-button:mounted',
      'ai-button:running-ides',
      'ai-button:plugins-site-link-click',
    ]);
    expect(messages.every(isWidgetMessage)).toBe(true);
  });

  it('installs into the first compatible IDE and tells the host', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm, SAMPLE_IDES.idea] });
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        buttonText="Get AI Assistant"
        onMessage={(message) => messages.push(message)}
      />,
    );
    await user().click(await screen.findByRole('button', { name: 'Get AI Assistant' }));
    await act(async () => {});
    expect(bridge.calls).toContain(`install ${xmlId}@${SAMPLE_IDES.pycharm.port}`);
    expect(messages.at(-1)).toMatchObject({ type: 'ai-button:install-success', ide: SAMPLE_IDES.pycharm });
    expect(messages.find((message) => message.type === 'ai-button:running-ides')).toMatchObject({
      ides: [SAMPLE_IDES.pycharm, SAMPLE_IDES.idea],
    });
  });

  it('clears the IDE list after a failed install and falls back to the link', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], install: 'fail' });
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await user().click(await screen.findByRole('button', { name: 'Try for free' }));
    await act(async () => {});
    expect(messages.at(-1)).toMatchObject({ type: 'ai-button:install-error', ide: SAMPLE_IDES.idea });
    expect(bridge.calls).toContain('clear');
    expect(screen.getByRole('link', { name: 'Try for free' })).toBeTruthy();
  });

  it('looks for IDEs again every 10 seconds', async () => {
    const bridge = createMemoryIdeBridge();
    render(<AiButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await act(async () => {});
    expect(screen.getByRole('link')).toBeTruthy();
    bridge.setIdes([SAMPLE_IDES.idea]);
    await act(async () => vi.advanceTimersByTime(RUNNING_IDE_POLL_INTERVAL_MS - 50));
    expect(screen.queryByRole('button')).toBeNull();
    await act(async () => vi.advanceTimersByTime(100));
    expect(screen.getByRole('button', { name: 'Try for free' })).toBeTruthy();
    expect(bridge.calls.filter((call) => call === 'find')).toHaveLength(2);
  });

  it('takes its size and line wrapping from the embed options', () => {
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={createMemoryIdeBridge({ discoveryHangs: true })}
        buttonSize="l"
        allowMultiline={false}
      />,
    );
    const root = screen.getByRole('link').parentElement;
    expect(root?.classList.contains('mp-ai-button--l')).toBe(true);
    expect(root?.classList.contains('mp-ai-button--multiline')).toBe(false);
  });
});
