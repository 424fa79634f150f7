// A page on another site: the IDE trusts localhost pages without asking, so the refusal case needs this.
// @vitest-environment-options { "url": "http://blog.example.org/install.html" }
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFailureToast } from '@marketplace/core';
import { createIdeBridge } from '@marketplace/ide-bridge';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { AiButton } from '../ai-button/AiButton';
import type { WidgetMessage } from '@marketplace/protocol';
import type { IdeBridge } from '../ide/ide-bridge';
import { InstallButton } from './InstallButton';

/** The components with the real bridge, talking HTTP to the IDE simulator on a free loopback port. */

const xmlId = 'com.example.rainbow';
const pluginUrl = 'https://plugins.example.com/plugin/42-rainbow';
let simulator: IdeSimulator | undefined;

afterEach(async () => {
  // Unmount first, so no poll is in flight when the simulator stops listening.
  cleanup();
  await simulator?.close();
  simulator = undefined;
});

async function bridgeToSimulator(options: Parameters<typeof startIdeSimulator>[0]): Promise<IdeBridge> {
  simulator = await startIdeSimulator({ port: 0, rateLimitPerMinute: Infinity, ...options });
  // Only the simulator's port: other ports may belong to real IDEs or to other test runs.
  const bridge: IdeBridge = createIdeBridge({
    ports: { start: simulator.port, maxAttempts: 1, maxFailedPorts: 1 },
    permission: false,
  });
  return bridge;
}

describe('install button with the real bridge and the IDE simulator', () => {
  it('finds the IDE and installs into it', async () => {
    const bridge = await bridgeToSimulator({ name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.23892.409' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Check your IDE - IntelliJ IDEA 2025.2',
    );
    const install = simulator?.requests.find((request) => request.query.action === 'install');
    expect(install?.query.pluginId).toBe(xmlId);
  });

  it('adds that the IDE refused to the failure toast when the IDE answers 403, and keeps the IDE', async () => {
    const bridge = await bridgeToSimulator({ name: 'GoLand 2025.2', untrustedOrigins: 'refuse' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Install to GoLand 2025.2' }));
    const alert = await screen.findByRole('alert');
    const failure = installFailureToast('GoLand 2025.2');
    expect(alert.textContent).toContain(failure.title);
    expect(alert.textContent).toContain(`${failure.message} GoLand 2025.2 refused the request.`);
    expect(screen.getByRole('button', { name: 'Install to GoLand 2025.2' })).toBeTruthy();
  });

  it('lets the AI button install only a plugin the IDE reports compatible', async () => {
    const bridge = await bridgeToSimulator({ name: 'PyCharm 2025.2', plugins: { [xmlId]: false } });
    const messages: WidgetMessage[] = [];
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await waitFor(() => expect(messages.some((m) => m.type === 'ai-button:running-ides')).toBe(true));
    expect(messages.find((m) => m.type === 'ai-button:running-ides')).toMatchObject({ ides: [] });
    expect(screen.getByRole('link', { name: 'Try for free' })).toBeTruthy();
    expect(simulator?.requests.some((request) => request.query.action === 'checkCompatibility')).toBe(true);
  });
});
