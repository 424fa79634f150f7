import type { RunningIde } from '@marketplace/core';
import { hasCompatibleVersion } from '../marketplace-api/marketplace-api';

/** The address the IDE reads this marketplace's items from, as a custom plugin repository. */
export function pluginRepositoryUrl(marketplaceUrl: string): string {
  return `${marketplaceUrl.replace(/\/+$/, '')}/plugins/list`;
}

// One question per marketplace, IDE build and plugin, however often the buttons look; a failed one is asked again.
const answers = new Map<string, Promise<boolean>>();

/**
 * This marketplace's own answer to "does the plugin install into this IDE?", for IDEs that do not know the
 * plugin: when only this marketplace has it, the IDE says "not compatible". The marketplace answers with its
 * rule for the IDE's feed (a stable version whose since/until range holds the IDE's build, for the IDE's
 * product family and product), so the widget offers exactly what the IDE will find once it reads this
 * marketplace. False when the marketplace cannot be asked.
 */
export function isCompatibleByMarketplace(
  ide: RunningIde,
  pluginXmlId: string,
  marketplaceUrl: string,
): Promise<boolean> {
  const key = `${marketplaceUrl} ${ide.buildNumber} ${pluginXmlId}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = hasCompatibleVersion(marketplaceUrl, ide.buildNumber, pluginXmlId).catch(() => {
      answers.delete(key);
      return false;
    });
    answers.set(key, answer);
  }
  return answer;
}
