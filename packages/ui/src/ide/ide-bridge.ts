import type { RunningIde } from '@marketplace/core';
import { createContext, useContext } from 'react';

/**
 * What the components need from the IDE bridge. `@marketplace/ide-bridge` satisfies it; stories and tests
 * pass a bridge pointed at an in-memory IDE or at the IDE simulator.
 */
export interface IdeBridge {
  /**
   * IDEs running on the visitor's machine (the bridge caches the list). `userGesture`: the visitor just
   * clicked, so the browser may ask them for local network access; `force`: skip the cache.
   */
  findRunningIdes(options?: { userGesture?: boolean; force?: boolean }): Promise<RunningIde[]>;
  /**
   * Whether the browser lets the page reach the visitor's machine. 'prompt': it would ask first, so the
   * components look for IDEs only after a click. Bridges without it are treated as 'granted'.
   */
  localNetworkPermission?(): Promise<LocalNetworkAccess>;
  /** Whether the plugin can be installed into this IDE. */
  isCompatible(ide: RunningIde, pluginXmlId: string): Promise<boolean>;
  /** Asks the IDE to install the plugin; rejects when the IDE cannot be reached or refuses. */
  installPlugin(ide: RunningIde, pluginXmlId: string): Promise<void>;
  /** Opens a course in the IDE, installing the course plugin first when needed. */
  openCourse(ide: RunningIde, courseId: number): Promise<void>;
  /** Opens a course launched from a learning management system. */
  openLtiCourse(ide: RunningIde, launch: LtiLaunch): Promise<void>;
  /** Forgets cached IDE lists and compatibility answers, so the next call asks the IDEs again. */
  clearCache(): void;
}

export type LocalNetworkAccess = 'granted' | 'prompt' | 'denied' | 'unsupported';

export interface LtiLaunch {
  marketplaceCourseId: number;
  launchId?: string;
  studyItemId?: string;
  lmsDescription?: string;
}

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
