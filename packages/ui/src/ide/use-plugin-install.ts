import type { RunningIde } from '@marketplace/core';
import { useState } from 'react';
import type { IdeBridge } from './ide-bridge';

/** What an install button says while the IDE asks its user whether to trust this page. */
export const CONFIRM_IN_IDE = 'Confirm in your IDE';

export interface PluginInstall {
  /** The IDE being asked to install; `confirming` while it asks its user whether to trust this page. */
  installing: { ide: RunningIde; confirming: boolean } | undefined;
  /** After an install the IDE could not know about (an item only this marketplace has): that IDE. */
  needsRepository: RunningIde | undefined;
  /** Asks the IDE to install the plugin; rejects as the bridge does. */
  install: (ide: RunningIde) => Promise<void>;
}

/** The install step the install buttons share: its progress, and whether the IDE needs this marketplace. */
export function usePluginInstall(
  bridge: IdeBridge,
  pluginXmlId: string,
  marketplaceUrl: string | undefined,
): PluginInstall {
  const [installing, setInstalling] = useState<PluginInstall['installing']>(undefined);
  const [needsRepository, setNeedsRepository] = useState<RunningIde | undefined>(undefined);
  const install = async (ide: RunningIde) => {
    setInstalling({ ide, confirming: false });
    setNeedsRepository(undefined);
    try {
      await bridge.installPlugin(ide, pluginXmlId, {
        onAwaitingConfirmation: () => setInstalling({ ide, confirming: true }),
      });
    } finally {
      setInstalling(undefined);
    }
    // The IDE answered 200 but installs only what its repositories have: one that does not know the plugin
    // does nothing until this marketplace is one of them.
    if (marketplaceUrl !== undefined) {
      void bridge
        .isCompatible(ide, pluginXmlId)
        .catch(() => false)
        .then((known) => known || setNeedsRepository(ide));
    }
  };
  return { installing, needsRepository, install };
}
