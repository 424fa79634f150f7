import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { InstallButton } from './InstallButton';

const pluginUrl = 'https://plugins.example.com/plugin/42-rainbow';
const xmlId = 'com.example.rainbow';

describe('InstallButton', () => {
  it('is busy while it looks for IDEs', () => {
    const bridge = createMemoryIdeBridge({ discoveryHangs: true });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    expect(screen.getByRole('button').getAttribute('aria-busy')).toBe('true');
  });

  it('offers the plugin page when no IDE runs', async () => {
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={createMemoryIdeBridge()} />);
    const link = await screen.findByRole('link', { name: 'Get from Marketplace' });
    expect(link.getAttribute('href')).toBe(pluginUrl);
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('offers what the page gives instead when no IDE runs, on the item page itself', async () => {
    render(
      <InstallButton
        pluginXmlId={xmlId}
        pluginUrl={pluginUrl}
        bridge={createMemoryIdeBridge()}
        whenNoIde={<a href="/plugin/42-rainbow/versions">Download</a>}
      />,
    );
    expect((await screen.findByRole('link', { name: 'Download' })).getAttribute('href')).toBe(
      '/plugin/42-rainbow/versions',
    );
    expect(screen.queryByRole('link', { name: 'Get from Marketplace' })).toBeNull();
  });

  it('installs into the one running IDE, busy until the IDE answers, and says so', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland] });
    let answer: () => void = () => undefined;
    const installing = new Promise<void>((resolve) => (answer = resolve));
    bridge.installPlugin = (ide, pluginXmlId) => {
      bridge.calls.push(`install ${pluginXmlId}@${ide.port}`);
      return installing;
    };
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    const button = await screen.findByRole('button', { name: 'Install to GoLand 2025.2' });
    await userEvent.click(button);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('status')).toBeNull();
    answer();
    const toast = await screen.findByRole('status');
    expect(toast.textContent).toContain('Success');
    expect(toast.textContent).toContain('Check your IDE - GoLand 2025.2');
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(bridge.calls).toContain(`install ${xmlId}@${SAMPLE_IDES.goland.port}`);
  });

  it('lists several IDEs in a menu, copies of one IDE grouped under its name', async () => {
    const bridge = createMemoryIdeBridge({
      ides: [SAMPLE_IDES.idea, SAMPLE_IDES.pycharm, SAMPLE_IDES.ideaSecondCopy],
    });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Install to IDE' }));
    const group = screen.getByRole('group', { name: 'IntelliJ IDEA 2025.2' });
    expect(group.querySelectorAll('[role="menuitem"]')).toHaveLength(2);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'IU-252.23892.409 (port 63342)',
      'IU-252.26830.84 (port 63343)',
      'PyCharm 2025.2',
    ]);
    await userEvent.click(screen.getByRole('menuitem', { name: 'PyCharm 2025.2' }));
    expect((await screen.findByRole('status')).textContent).toContain('Check your IDE - PyCharm 2025.2');
    expect(bridge.calls).toContain(`install ${xmlId}@${SAMPLE_IDES.pycharm.port}`);
  });

  it('reports a failed install until closed, and forgets the IDEs it knew', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], install: 'fail' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    const button = await screen.findByRole('button', { name: 'Install to IntelliJ IDEA 2025.2' });
    bridge.setIdes([]);
    await userEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Oops');
    expect(alert.textContent).toContain(
      'Installation to IntelliJ IDEA 2025.2 is failed during the error. Please make sure, your IDE is still running.',
    );
    expect(bridge.calls).toContain('clear');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Get from Marketplace' })).toBeTruthy());
  });

  it('waits for a click before looking for IDEs when the browser would ask the visitor first', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland], localNetworkAccess: 'prompt' });
    render(<InstallButton pluginXmlId={xmlId} pluginUrl={pluginUrl} bridge={bridge} />);
    const button = await screen.findByRole('button', { name: 'Install' });
    expect(bridge.calls.filter((call) => call.startsWith('find'))).toEqual([]);
    await userEvent.click(button);
    expect((await screen.findByRole('status')).textContent).toContain('Check your IDE - GoLand 2025.2');
    expect(bridge.calls).toEqual(['find after a click', `install ${xmlId}@${SAMPLE_IDES.goland.port}`]);
  });
});
