import { productKeyFromBuildNumber } from '@marketplace/core';
import type { RunningIde } from '@marketplace/core';
import type { DiscoveredIde, LocalNetworkPermission } from '@marketplace/ide-bridge';
import { IdeBridgeError, ideBridgeMessages } from '@marketplace/ide-bridge';
import type { IdeBridge } from './ide-bridge';

/**
 * How a request to the in-memory IDE ends: at once, after a delay, with a failure, or never (to show busy
 * states); 'ask': the IDE asks its user whether to trust the page, and nobody answers.
 */
export type MemoryOutcome = 'succeed' | 'fail' | 'hang' | 'ask';

export interface MemoryIdeBridgeOptions {
  ides?: RunningIde[];
  /** XML ids the IDEs accept; every plugin when undefined. */
  compatiblePluginXmlIds?: readonly string[];
  install?: MemoryOutcome;
  openCourse?: MemoryOutcome;
  /** Delay of every answer, in ms. */
  delayMs?: number;
  /** The search for IDEs never ends (to show the looking-for-IDEs state). */
  discoveryHangs?: boolean;
  /** The IDE asks its user whether to trust the page before it answers the search, and nobody answers. */
  discoveryAsks?: boolean;
  /** 'prompt': the browser would ask the visitor before the first look (granted once looked with a gesture). */
  localNetworkAccess?: LocalNetworkPermission;
}

export interface MemoryIdeBridge extends IdeBridge {
  /** What was asked of the IDEs, in order, e.g. "install com.example@63342". */
  readonly calls: string[];
  /** Replaces the running IDEs (as if an IDE started or quit). */
  setIdes(ides: RunningIde[]): void;
}

/** The IDE as the real bridge's discovery reports it, with its product read from the build number. */
function discovered(ide: RunningIde): DiscoveredIde {
  return { ...ide, productKey: productKeyFromBuildNumber(ide.buildNumber) };
}

/**
 * An IDE bridge whose IDEs live in memory: for stories and component tests, where no IDE runs. The real
 * bridge is `@marketplace/ide-bridge`; the IDE simulator stands in for real IDEs in integration tests.
 */
export function createMemoryIdeBridge(options: MemoryIdeBridgeOptions = {}): MemoryIdeBridge {
  let ides = (options.ides ?? []).map(discovered);
  let access: LocalNetworkPermission = options.localNetworkAccess ?? 'granted';
  const calls: string[] = [];
  const delay = options.delayMs ?? 0;
  const answer = <T>(value: () => T, outcome: MemoryOutcome = 'succeed'): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (outcome === 'hang' || outcome === 'ask') return;
      const settle = () => {
        if (outcome === 'fail') reject(new Error('The IDE did not answer.'));
        else resolve(value());
      };
      if (delay > 0) setTimeout(settle, delay);
      else queueMicrotask(settle);
    });
  return {
    calls,
    setIdes(next) {
      ides = next.map(discovered);
    },
    findRunningIdes(findOptions) {
      calls.push(findOptions?.userGesture ? 'find after a click' : 'find');
      if (access === 'prompt') {
        if (!findOptions?.userGesture) return answer(() => []);
        access = 'granted';
      }
      if (options.discoveryAsks) {
        if (findOptions?.waitForConfirmation) return answer(() => [], 'hang');
        const asking = ideBridgeMessages.awaitingConfirmation(`The IDE on port ${ides[0]?.port ?? 63342}`);
        return Promise.reject(new IdeBridgeError('awaiting-confirmation', asking));
      }
      return answer(() => [...ides], options.discoveryHangs ? 'hang' : 'succeed');
    },
    localNetworkPermission() {
      return answer(() => access);
    },
    isCompatible(ide, pluginXmlId) {
      calls.push(`compatible ${pluginXmlId}@${ide.port}`);
      const list = options.compatiblePluginXmlIds;
      return answer(() => list === undefined || list.includes(pluginXmlId));
    },
    installPlugin(ide, pluginXmlId, installOptions) {
      calls.push(`install ${pluginXmlId}@${ide.port}`);
      if (options.install === 'ask') setTimeout(() => installOptions?.onAwaitingConfirmation?.(), delay);
      return answer(() => undefined, options.install);
    },
    openCourse(ide, courseId) {
      calls.push(`course ${courseId}@${ide.port}`);
      return answer(() => undefined, options.openCourse);
    },
    openLtiCourse(ide, launch) {
      calls.push(`lti ${launch.marketplaceCourseId}@${ide.port}`);
      return answer(() => undefined, options.openCourse);
    },
    clearCache() {
      calls.push('clear');
    },
  };
}

/** IDEs as they appear on a developer's machine, for stories and tests. */
export const SAMPLE_IDES = {
  idea: { name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.23892.409', port: 63342 },
  ideaSecondCopy: { name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.26830.84', port: 63343 },
  pycharm: { name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.439', port: 63344 },
  goland: { name: 'GoLand 2025.2', buildNumber: 'GO-252.23892.402', port: 63345 },
} satisfies Record<string, RunningIde>;
