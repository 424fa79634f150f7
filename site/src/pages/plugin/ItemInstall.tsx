import type { ProductFamily } from '@marketplace/core';
import { InstallButton } from '@marketplace/ui';
import { GetItem } from './GetItem';

/**
 * The item page's install button (with the IDE bridge's code, a chunk of its own: PluginPage loads it once
 * the page is drawn), offering the item's downloads when no IDE runs.
 */
export function ItemInstall({
  pluginXmlId,
  pluginUrl,
  marketplaceUrl,
  versionsPath,
  family,
}: {
  pluginXmlId: string;
  pluginUrl: string;
  marketplaceUrl: string;
  versionsPath: string;
  family: ProductFamily;
}) {
  return (
    <InstallButton
      pluginXmlId={pluginXmlId}
      pluginUrl={pluginUrl}
      marketplaceUrl={marketplaceUrl}
      whenNoIde={<GetItem versionsPath={versionsPath} family={family} />}
    />
  );
}
