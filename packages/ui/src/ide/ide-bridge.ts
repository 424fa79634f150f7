import type { IdeBridge as FullIdeBridge } from '@marketplace/ide-bridge';
import { createContext, useContext } from 'react';

/**
 * What the components need from the IDE bridge: the calls of `@marketplace/ide-bridge`'s own interface, picked
 * rather than copied so the two cannot drift apart. Every call to an IDE takes the IDE first. Stories and tests
 * pass an in-memory bridge (`createMemoryIdeBridge`) or the real one pointed at the IDE simulator.
 */
export type IdeBridge = Pick<
  FullIdeBridge,
  | 'findRunningIdes'
  | 'localNetworkPermission'
  | 'isCompatible'
  | 'installPlugin'
  | 'openCourse'
  | 'openLtiCourse'
  | 'clearCache'
>;

export const IdeBridgeContext = createContext<IdeBridge | null>(null);

/** The bridge given as a prop, else the one from `IdeBridgeContext`; throws when there is neither. */
export function useIdeBridge(fromProps?: IdeBridge): IdeBridge {
  const fromContext = useContext(IdeBridgeContext);
  const bridge = fromProps ?? fromContext;
  if (!bridge) {
    throw new Error('No IDE bridge: pass the `bridge` prop or render inside <IdeBridgeContext.Provider>.');
  }
  return bridge;
}
