import type { RunningIde } from '@marketplace/core';
import { createContext, useContext } from 'react';

/**
 * What the components need from the IDE bridge. `@marketplace/ide-bridge` satisfies it; stories and tests
 * pass a bridge pointed at an in-memory IDE or at the IDE simulator.
 */
export interface IdeBridge {
  /** IDEs running on the visitor's machine (the bridge caches the list). */
  findRunningIdes(): Promise<RunningIde[]>;
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
