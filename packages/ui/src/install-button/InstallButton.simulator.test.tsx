// A page on another site: the IDE trusts localhost pages without asking, so the tests of its
// "trust this host?" question need a page elsewhere.
// @vitest-environment-options { "url": "http://blog.example.org/install.html" }
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFailureToast } from '@marketplace/core';
import { createIdeBridge } from '@marketplace/ide-bridge';
import type { IdeSimulator, IdeSimulatorOptions } from '@marketplace/ide-simulator';
import { startIdeSimulator, TRUST_ANSWER_REMEMBERED_MS } from '@marketplace/ide-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { AiButton } from '../ai-button/AiButton';
import type { WidgetMessage } from '@marketplace/protocol';
import type { IdeBridge } from '../ide/ide-bridge';
import { InstallButton } from './InstallButton';

/** The components with the real bridge, talking HTTP to the IDE simulator on a free loopback port. */

const xmlId = 'com.example.rainbow';
const pluginUrl = 'https://plugins.example.com/plugin/42-rainbow';
const PAGE_HOST = 'blog.example.org';
let simulator: IdeSimulator | undefined;
const marketplaces: Server[] = [];

afterEach(async () => {
  // Unmount first, so no poll is in flight when the simulator stops listening.
  cleanup();
  await simulator?.close();
  simulator = undefined;
  const servers = marketplaces.splice(0);
  await Promise.all(
    servers.map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function bridgeToSimulator(options: IdeSimulatorOptions): Promise<IdeBridge> {
  simulator = await startIdeSimulator({
    port: 0,
    rateLimitPerMinute: Infinity,
    installDurationMs: 0,
    ...options,
  });
  // Only the simulator's port: other ports may belong to real IDEs or to other test runs.
  const bridge: IdeBridge = createIdeBridge({
    ports: { start: simulator.port, maxAttempts: 1, maxFailedPorts: 1 },
    permission: false,
  });
  return bridge;
}

/**
 * A marketplace on loopback that answers `updates/nearest` as the real one does for an item with a stable
 * version for the builds `fits` accepts; it keeps the questions it was asked.
 */
async function marketplaceWith(fits: (build: string) => boolean) {
  const asked: string[] = [];
  const marketplace = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const nearest = url.pathname === '/api/search/updates/nearest';
    const build = url.searchParams.get('build') ?? '';
    const xmlId = url.searchParams.get('pluginXMLIds') ?? '';
    if (nearest && request.method === 'GET') asked.push(`${build} ${xmlId}`);
    response.writeHead(nearest ? 200 : 404, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'accept',
    });
    const answer = nearest && fits(build) ? { [xmlId]: { xmlId, id: 9, pluginId: 42, version: '1.0' } } : {};
    response.end(request.method === 'OPTIONS' ? undefined : JSON.stringify(answer));
  });
  marketplaces.push(marketplace);
  await new Promise<void>((resolve) => marketplace.listen(0, '127.0.0.1', resolve));
  const address = marketplace.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, asked };
}

/** A clock for the simulator only, to let its remembered answers expire. */
function simulatorClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('install button with the real bridge and the IDE simulator', () => {
  it('finds the IDE and installs into it', async () => {
    const bridge = await bridgeToSimulator({
      name: 'IntelliJ IDEA 2025.2',
      buildNumber: 'IU-252.23892.409',
      untrustedOrigins: 'accept',
    });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Check your IDE - IntelliJ IDEA 2025.2',
    );
    const install = simulator?.requests.find((request) => request.query.action === 'install');
    expect(install?.query.pluginId).toBe(xmlId);
  });

  it('says "Confirm in your IDE" while the IDE asks whether to trust the site, then installs once it may', async () => {
    const bridge = await bridgeToSimulator({ name: 'IntelliJ IDEA 2025.2' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    const asking = await screen.findByRole('button', { name: 'Confirm in your IDE' }, { timeout: 5_000 });
    expect(asking.getAttribute('aria-busy')).toBe('true');
    expect(simulator?.pendingConfirmations()).toMatchObject([{ host: PAGE_HOST }]);
    simulator?.confirmPending(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Check your IDE - IntelliJ IDEA 2025.2',
    );
    expect(simulator?.installedPluginIds()).toEqual([xmlId]);
  });

  it('says "Confirm in your IDE" while an install waits for the IDE, and that the IDE refused when told no', async () => {
    const clock = simulatorClock();
    const bridge = await bridgeToSimulator({ name: 'GoLand 2025.2', now: clock.now });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await screen.findByRole('button', { name: 'Confirm in your IDE' }, { timeout: 5_000 });
    simulator?.confirmPending(true);
    const button = await screen.findByRole('button', { name: 'Install to GoLand 2025.2' });
    // A day later the IDE has forgotten the answer and asks again, this time about the install.
    clock.advance(TRUST_ANSWER_REMEMBERED_MS);
    await userEvent.click(button);
    await screen.findByRole('button', { name: 'Confirm in your IDE' }, { timeout: 5_000 });
    expect(screen.queryByRole('status')).toBeNull();
    simulator?.confirmPending(false);
    const alert = await screen.findByRole('alert');
    const failure = installFailureToast('GoLand 2025.2');
    expect(alert.textContent).toContain(failure.title);
    expect(alert.textContent).toContain(`${failure.message} GoLand 2025.2 refused the request.`);
    expect(screen.getByRole('button', { name: 'Install to GoLand 2025.2' })).toBeTruthy();
    expect(simulator?.installedPluginIds()).toEqual([]);
  });

  it('offers the plugin page when the visitor tells the IDE not to trust the site', async () => {
    const bridge = await bridgeToSimulator({ name: 'GoLand 2025.2', untrustedOrigins: 'refuse' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    expect((await screen.findByRole('link', { name: 'Get from Marketplace' })).getAttribute('href')).toBe(
      pluginUrl,
    );
  });

  it('after installing a plugin the IDE does not know, says how to add this marketplace to the IDE', async () => {
    const bridge = await bridgeToSimulator({ name: 'IntelliJ IDEA 2025.2', untrustedOrigins: 'accept' });
    render(
      <InstallButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        marketplaceUrl="https://plugins.example.com"
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    const hint = await screen.findByRole('note');
    expect(hint.textContent).toContain(
      'Nothing in IntelliJ IDEA 2025.2? Add this marketplace in Settings | Plugins | ⚙ | Manage Plugin Repositories',
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Plugin repository URL' }).value).toBe(
      'https://plugins.example.com/plugins/list',
    );
  });

  it('says nothing of repositories after installing a plugin the IDE knows', async () => {
    const bridge = await bridgeToSimulator({ untrustedOrigins: 'accept', plugins: { [xmlId]: true } });
    render(
      <InstallButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        marketplaceUrl="https://plugins.example.com"
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' }));
    await screen.findByRole('status');
    await waitFor(() =>
      expect(simulator?.requests.some((request) => request.query.action === 'checkCompatibility')).toBe(true),
    );
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('AI button with the real bridge and the IDE simulator', () => {
  const messagesOf = (messages: WidgetMessage[], type: WidgetMessage['type']) =>
    messages.filter((message) => message.type === type);

  it('installs only a plugin the IDE reports compatible when nothing else is known of it', async () => {
    const bridge = await bridgeToSimulator({
      name: 'PyCharm 2025.2',
      plugins: { [xmlId]: false },
      untrustedOrigins: 'accept',
    });
    const messages: WidgetMessage[] = [];
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await waitFor(() => expect(messagesOf(messages, 'ai-button:running-ides')).not.toEqual([]));
    expect(messagesOf(messages, 'ai-button:running-ides')[0]).toMatchObject({ ides: [] });
    expect(screen.getByRole('link', { name: 'Try for free' })).toBeTruthy();
    expect(simulator?.requests.some((request) => request.query.action === 'checkCompatibility')).toBe(true);
  });

  it('offers an item only this marketplace has when the marketplace says a version fits, then says how to add it', async () => {
    const marketplace = await marketplaceWith((build) => build === 'IU-252.23892.409');
    const bridge = await bridgeToSimulator({ buildNumber: 'IU-252.23892.409', untrustedOrigins: 'accept' });
    const messages: WidgetMessage[] = [];
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        marketplaceUrl={marketplace.url}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Try for free' }));
    await waitFor(() => expect(messagesOf(messages, 'ai-button:install-success')).toHaveLength(1));
    expect(marketplace.asked).toEqual([`IU-252.23892.409 ${xmlId}`]);
    expect(simulator?.requests.find((request) => request.query.action === 'install')?.query.pluginId).toBe(
      xmlId,
    );
    expect((await screen.findByRole('note')).textContent).toContain('Manage Plugin Repositories');
    expect(screen.getByRole<HTMLInputElement>('textbox').value).toBe(`${marketplace.url}/plugins/list`);
  });

  it('keeps the link when neither the IDE nor the marketplace knows a version for the IDE', async () => {
    const marketplace = await marketplaceWith(() => false);
    const bridge = await bridgeToSimulator({ buildNumber: 'PY-252.23892.439', untrustedOrigins: 'accept' });
    const messages: WidgetMessage[] = [];
    render(
      <AiButton
        pluginXmlId="com.example.later"
        pluginUrl={pluginUrl}
        bridge={bridge}
        marketplaceUrl={marketplace.url}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await waitFor(() => expect(messagesOf(messages, 'ai-button:running-ides')).toHaveLength(1));
    expect(messagesOf(messages, 'ai-button:running-ides')[0]).toMatchObject({ ides: [] });
    expect(marketplace.asked).toEqual(['PY-252.23892.439 com.example.later']);
    expect(screen.getByRole('link', { name: 'Try for free' })).toBeTruthy();
  });

  it('says "Confirm in your IDE" while the IDE asks, then installs once the visitor says yes', async () => {
    const clock = simulatorClock();
    const bridge = await bridgeToSimulator({
      name: 'IntelliJ IDEA 2025.2',
      plugins: { [xmlId]: true },
      now: clock.now,
    });
    const messages: WidgetMessage[] = [];
    render(
      <AiButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={bridge}
        onMessage={(m) => messages.push(m)}
      />,
    );
    await screen.findByRole('button', { name: 'Confirm in your IDE' }, { timeout: 5_000 });
    simulator?.confirmPending(true);
    const button = await screen.findByRole('button', { name: 'Try for free' });
    clock.advance(TRUST_ANSWER_REMEMBERED_MS);
    await userEvent.click(button);
    await screen.findByRole('button', { name: 'Confirm in your IDE' }, { timeout: 5_000 });
    expect(messagesOf(messages, 'ai-button:install-success')).toEqual([]);
    simulator?.confirmPending(true);
    await waitFor(() => expect(messagesOf(messages, 'ai-button:install-success')).toHaveLength(1));
    expect(simulator?.installedPluginIds()).toEqual([xmlId]);
    expect(screen.getByRole('button', { name: 'Try for free' })).toBeTruthy();
  });
});
