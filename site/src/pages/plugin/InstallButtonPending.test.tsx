import { IdeBridgeContext } from '@marketplace/ui';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { pageIdeBridge } from '../../lib/ide-bridge';
import { InstallButtonPending } from './InstallButtonPending';
import { ItemInstall } from './ItemInstall';

describe('the install button while its code loads', () => {
  it('is the button the server draws, so nothing moves when the real one takes its place', () => {
    const server = renderToStaticMarkup(
      <IdeBridgeContext.Provider value={pageIdeBridge()}>
        <ItemInstall
          pluginXmlId="com.example.rainbow"
          pluginUrl="https://plugins.example.com/plugin/42-rainbow"
          marketplaceUrl="https://plugins.example.com"
          versionsPath="/plugin/42-rainbow/versions"
          family="intellij"
        />
      </IdeBridgeContext.Provider>,
    );
    expect(server).toContain('Install');
    expect(renderToStaticMarkup(<InstallButtonPending />)).toBe(server);
  });
});
