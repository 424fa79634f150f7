import { createIdeBridge } from '@marketplace/ide-bridge';
import type { IdeBridge } from '@marketplace/ui';

let bridge: IdeBridge | undefined;

/** One bridge per page, so every install button shares the IDE list and its 60-second cache. */
export function pageIdeBridge(): IdeBridge {
  bridge ??= createIdeBridge();
  return bridge;
}
