import { productKeysForCourseLanguage } from '@marketplace/core';
import type { DiscoveredIde } from './discovery';

/**
 * The running IDEs that can open a course in this language (spec §9, through core), in the order they were
 * found. An IDE whose build number names no known product cannot.
 */
export function idesForCourseLanguage<T extends Pick<DiscoveredIde, 'productKey'>>(
  language: string,
  ides: readonly T[],
): T[] {
  const keys = new Set(productKeysForCourseLanguage(language));
  return ides.filter((ide) => ide.productKey !== undefined && keys.has(ide.productKey));
}
