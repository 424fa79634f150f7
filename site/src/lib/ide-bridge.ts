import type { IdeBridge } from '@marketplace/ui';

let bridge: IdeBridge | undefined;
let loading: Promise<IdeBridge> | undefined;

/**
 * The bridge itself, its code loaded the first time a component talks to an IDE: most pages have no install
 * button, so the scan of the IDE's ports is not part of every page's first download.
 */
function loadedBridge(): Promise<IdeBridge> {
  loading ??= import('@marketplace/ide-bridge').then(({ createIdeBridge }) => (bridge = createIdeBridge()));
  return loading;
}

/** What the components hold: every call waits for the bridge's code, then goes to the one bridge. */
const pageBridge: IdeBridge = {
  findRunningIdes: async (...args) => (await loadedBridge()).findRunningIdes(...args),
  localNetworkPermission: async () => (await loadedBridge()).localNetworkPermission(),
  isCompatible: async (...args) => (await loadedBridge()).isCompatible(...args),
  installPlugin: async (...args) => (await loadedBridge()).installPlugin(...args),
  openCourse: async (...args) => (await loadedBridge()).openCourse(...args),
  openLtiCourse: async (...args) => (await loadedBridge()).openLtiCourse(...args),
  // Nothing is cached before the bridge exists.
  clearCache: () => bridge?.clearCache(),
};

/** One bridge per page, so every install button shares the IDE list and its 60-second cache. */
export function pageIdeBridge(): IdeBridge {
  return pageBridge;
}
