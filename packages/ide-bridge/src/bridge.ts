import {
  COURSE_PLUGIN_RECHECK_INTERVAL_MS,
  COURSE_PLUGIN_RECHECK_TRIES,
  EDU_PLUGIN_XML_ID,
  IDE_CACHE_TTL_MS,
  IDE_PORT_START,
  IDE_SCAN_MAX_ATTEMPTS,
  IDE_SCAN_MAX_FAILED_PORTS,
  RUNNING_IDE_POLL_INTERVAL_MS,
} from '@marketplace/core';
import type { RunningIde } from '@marketplace/core';
import { sleep, systemClock } from './clock';
import type { Clock } from './clock';
import { IdeBridgeError, ideBridgeMessages } from './errors';
import { groupIdesByName, probePort, scanConcurrently, scanSequentially } from './discovery';
import type { DiscoveredIde, IdeGroup, PortRange, ProbeResult, ScanStrategy } from './discovery';
import { browserLocalNetworkPermission } from './permission';
import type { LocalNetworkPermission, LocalNetworkPermissionSource } from './permission';
import { callIde, parseJson, unexpectedAnswer } from './transport';
import type { FetchFunction, IdeTarget, TransportDependencies } from './transport';

/**
 * How long a request to the IDE may stay unanswered before the visitor is told that the IDE is asking
 * whether to trust this page: the IDE answers at once otherwise, so a second is plenty.
 */
export const CONFIRMATION_NOTICE_MS = 1_000;

/**
 * How long the bridge waits for the visitor to answer the IDE's "trust this host?" dialog. The IDE holds its
 * answer while the dialog is open and sets no limit of its own; two minutes leave time to switch to the IDE,
 * read the question and answer it, while a page left alone does not keep a request open for ever.
 */
export const IDE_CONFIRMATION_TIMEOUT_MS = 120_000;

/** A course launched from a learning management system (`/api/edu/lti`). */
export interface LtiLaunch {
  marketplaceCourseId: number;
  launchId?: string;
  studyItemId?: string;
  lmsDescription?: string;
}

export interface IdeBridgeOptions {
  /** Default: the global fetch. */
  fetch?: FetchFunction;
  /** Default: the system clock and timers. */
  clock?: Clock;
  /** Default: from 63342, at most 10 ports, stop after 2 failed ports (spec §7, §9). */
  ports?: Partial<PortRange>;
  /** Default 'concurrent'; both give the same answer. */
  scan?: ScanStrategy;
  /** How long one discovery probe may take before its port counts as failed. Default 1000 ms. */
  probeTimeoutMs?: number;
  /** How long a compatibility or course call may take. Default 10 000 ms. */
  requestTimeoutMs?: number;
  /**
   * How long an install request, or a discovery probe the IDE holds, may wait for the visitor to answer the
   * IDE's "trust this host?" dialog. Default {@link IDE_CONFIRMATION_TIMEOUT_MS}.
   */
  confirmationTimeoutMs?: number;
  /**
   * Local Network Access: where the permission state comes from. Default: the browser's Permissions API
   * ('unsupported' outside Chromium, where requests simply go out). `false` ignores the permission.
   */
  permission?: LocalNetworkPermissionSource | false;
}

export interface FindRunningIdesOptions {
  /** Scan again even when the list is cached. */
  force?: boolean;
  /**
   * Set when called from a click or key press: the scan may then make the browser ask the visitor for Local
   * Network Access. Without it, a scan that would ask is not made and the answer is an empty list.
   */
  userGesture?: boolean;
  /**
   * When an IDE is asking its user whether to trust this page (a search rejected with 'awaiting-confirmation'),
   * wait for the answer, at most the confirmation timeout, then look again.
   */
  waitForConfirmation?: boolean;
}

export interface InstallOptions {
  /**
   * Called when the IDE has not answered within {@link CONFIRMATION_NOTICE_MS}: it is asking its user
   * whether to trust this page, and answers once they reply (the install then goes on, or is refused).
   */
  onAwaitingConfirmation?: () => void;
}

/** What subscribers are told, each time it changes. */
export type RunningIdesUpdate =
  /** `ides` empty: no IDE is running. */
  | { status: 'found'; ides: readonly DiscoveredIde[]; groups: readonly IdeGroup[] }
  /** The browser would ask the visitor first: call `findRunningIdes({ userGesture: true })` from a click. */
  | { status: 'awaiting-gesture' }
  | { status: 'failed'; error: IdeBridgeError };

export type RunningIdesListener = (update: RunningIdesUpdate) => void;

export interface IdeBridge {
  /** The running IDEs in port order (cached for 60 s). Rejects with an {@link IdeBridgeError}. */
  findRunningIdes(options?: FindRunningIdesOptions): Promise<DiscoveredIde[]>;
  /** Calls the listener with the running IDEs now and whenever they change, re-polling every 10 s. */
  subscribe(listener: RunningIdesListener): () => void;
  /** Whether the browser lets the bridge reach the IDEs, would ask first, or has no such permission. */
  localNetworkPermission(): Promise<LocalNetworkPermission>;
  // Every call to an IDE takes the IDE first: one that findRunningIdes() found, or any core `RunningIde`.
  /**
   * Asks the IDE to install the plugin (the IDE shows its own dialog). While the IDE asks its user whether to
   * trust this page, waits for the answer (at most the confirmation timeout). A failure clears the caches.
   */
  installPlugin(ide: RunningIde, pluginId: string, options?: InstallOptions): Promise<void>;
  /** Each plugin id the IDE knows, with whether it is compatible (cached for 60 s); unknown ids are absent. */
  checkCompatibility(ide: RunningIde, pluginIds: readonly string[]): Promise<ReadonlyMap<string, boolean>>;
  /** Whether the IDE knows the plugin and it is compatible; the same cached answers as `checkCompatibility`. */
  isCompatible(ide: RunningIde, pluginId: string): Promise<boolean>;
  /** Opens a course, installing EduTools first when missing and waiting for it (5 checks, 5 s apart). */
  openCourse(ide: RunningIde, courseId: number): Promise<void>;
  /** Opens a course launched from an LMS, installing EduTools first like `openCourse`. */
  openLtiCourse(ide: RunningIde, launch: LtiLaunch): Promise<void>;
  /** Forgets the IDE list and compatibility answers. */
  clearCache(): void;
}

interface CompatibilityEntry {
  /** undefined: the IDE has never heard of the plugin. */
  compatible: boolean | undefined;
  at: number;
}

function requirePluginId(pluginId: unknown): string {
  if (typeof pluginId !== 'string' || pluginId.trim() === '') {
    throw new TypeError(
      `A plugin id is a non-empty string such as "com.example.tool", got ${String(pluginId)}.`,
    );
  }
  return pluginId.trim();
}

function requireCourseId(courseId: unknown): number {
  if (typeof courseId !== 'number' || !Number.isSafeInteger(courseId) || courseId <= 0) {
    throw new TypeError(`A course id is a positive whole number, got ${String(courseId)}.`);
  }
  return courseId;
}

function requireIde(ide: unknown): RunningIde {
  const candidate = ide as Partial<RunningIde> | undefined;
  if (
    typeof candidate?.port !== 'number' ||
    !Number.isInteger(candidate.port) ||
    candidate.port < 1 ||
    candidate.port > 65535 ||
    typeof candidate.name !== 'string'
  ) {
    throw new TypeError('The IDE must be one found by findRunningIdes() (name, buildNumber and port).');
  }
  return candidate as RunningIde;
}

function resolveRange(ports: Partial<PortRange> = {}): PortRange {
  const range = {
    start: ports.start ?? IDE_PORT_START,
    maxAttempts: ports.maxAttempts ?? IDE_SCAN_MAX_ATTEMPTS,
    maxFailedPorts: ports.maxFailedPorts ?? IDE_SCAN_MAX_FAILED_PORTS,
  };
  if (!Number.isInteger(range.start) || range.start < 1 || range.start + range.maxAttempts - 1 > 65535) {
    throw new RangeError(`The port range must lie within 1-65535, got ${range.start}+${range.maxAttempts}.`);
  }
  if (!(range.maxAttempts >= 1 && range.maxFailedPorts >= 1)) {
    throw new RangeError('maxAttempts and maxFailedPorts must be at least 1.');
  }
  return range;
}

/** Two lists are the same for a listener when the same IDEs run on the same ports. */
function sameUpdate(a: RunningIdesUpdate | undefined, b: RunningIdesUpdate): boolean {
  if (a === undefined || a.status !== b.status) return false;
  if (a.status === 'found' && b.status === 'found') {
    return (
      a.ides.length === b.ides.length &&
      a.ides.every((ide, index) => {
        const other = b.ides[index];
        return other?.port === ide.port && other.name === ide.name && other.buildNumber === ide.buildNumber;
      })
    );
  }
  if (a.status === 'failed' && b.status === 'failed') return a.error.kind === b.error.kind;
  return true;
}

/**
 * When no IDE was found, a port that holds its answer (an IDE asking its user), answered 429 or 403
 * explains why better than "none running".
 */
function discoveryError(results: readonly ProbeResult[]): IdeBridgeError | undefined {
  const failures = results.map((result) => (result.ide ? undefined : result));
  const asking = failures.find((result) => result?.failure === 'awaiting-confirmation');
  if (asking) {
    return new IdeBridgeError(
      'awaiting-confirmation',
      ideBridgeMessages.awaitingConfirmation(`The IDE on port ${asking.port}`),
      { port: asking.port },
    );
  }
  const rateLimited = failures.find((result) => result?.failure === 'rate-limited');
  if (rateLimited) {
    return new IdeBridgeError(
      'rate-limited',
      ideBridgeMessages.rateLimited(`The IDE on port ${rateLimited.port}`),
      {
        port: rateLimited.port,
        status: 429,
      },
    );
  }
  const refused = failures.find((result) => result?.failure === 'refused');
  if (refused) {
    return new IdeBridgeError('refused', ideBridgeMessages.refused(`The IDE on port ${refused.port}`), {
      port: refused.port,
      status: 403,
    });
  }
  return undefined;
}

/** Creates a bridge to the IDEs on this machine. Framework-free; one per page is enough. */
export function createIdeBridge(options: IdeBridgeOptions = {}): IdeBridge {
  const clock = options.clock ?? systemClock;
  const range = resolveRange(options.ports);
  const probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const confirmationTimeoutMs = options.confirmationTimeoutMs ?? IDE_CONFIRMATION_TIMEOUT_MS;
  const permission: LocalNetworkPermissionSource =
    options.permission === false
      ? () => Promise.resolve('unsupported')
      : (options.permission ?? browserLocalNetworkPermission);
  const fetchFunction: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport: TransportDependencies = {
    fetch: fetchFunction,
    clock,
    permission,
    reachability: { anyAnswer: false },
  };
  const scan = options.scan === 'sequential' ? scanSequentially : scanConcurrently;

  let ideList: { ides: DiscoveredIde[]; at: number } | undefined;
  let runningScan: Promise<DiscoveredIde[]> | undefined;
  const compatibility = new Map<string, CompatibilityEntry>();
  // Bumped by clearCache(), so that a scan started before it cannot refill the cache with stale answers.
  let cacheGeneration = 0;

  const listeners = new Set<RunningIdesListener>();
  let lastUpdate: RunningIdesUpdate | undefined;
  let pollTimer: unknown;
  // Bumped when the last subscriber leaves, so that a poll still running then does not schedule another.
  let pollChain = 0;

  const publish = (update: RunningIdesUpdate) => {
    if (sameUpdate(lastUpdate, update)) return;
    lastUpdate = update;
    for (const listener of [...listeners]) {
      try {
        listener(update);
      } catch (error) {
        // One broken listener must not keep the others uninformed or stop the polling.
        console.error('IDE bridge: a running-IDE listener failed', error);
      }
    }
  };

  const isFresh = (at: number) => clock.now() - at < IDE_CACHE_TTL_MS;

  // Ports whose IDE held a probe past the probe timeout, asking its user whether to trust this page: the
  // probe goes on in the background, and settles the promise when the IDE answers or the wait ends.
  const confirmations = new Map<number, Promise<void>>();

  /** One port's probe: its answer within the probe timeout, else 'awaiting-confirmation' while it is held. */
  const probe = (port: number): Promise<ProbeResult> => {
    if (confirmations.has(port)) return Promise.resolve({ port, failure: 'awaiting-confirmation' });
    return new Promise((resolve) => {
      let answered: (() => void) | undefined;
      const notice = clock.setTimeout(() => {
        confirmations.set(port, new Promise((settle) => (answered = settle)));
        resolve({ port, failure: 'awaiting-confirmation' });
      }, probeTimeoutMs);
      void probePort(transport, port, Math.max(probeTimeoutMs, confirmationTimeoutMs)).then((result) => {
        clock.clearTimeout(notice);
        if (!answered) return resolve(result);
        confirmations.delete(port);
        // The visitor answered the IDE: what the page knew about its IDEs is out of date.
        if (result.ide || result.failure === 'refused') clearCache();
        answered();
      });
    });
  };

  const scanNow = (): Promise<DiscoveredIde[]> => {
    if (runningScan) return runningScan;
    const generation = cacheGeneration;
    const thisScan = scan(range, probe).then(async (results) => {
      const ides = results.flatMap((result) => (result.ide ? [result.ide] : []));
      if (ides.length === 0) {
        const error = discoveryError(results);
        if (error) throw error;
        // Asked after the scan: the visitor may just have answered the browser's prompt with "block".
        const nothingAnswered = results.every((result) => !result.ide && result.failure === 'closed');
        if (nothingAnswered && !transport.reachability.anyAnswer && (await permission()) === 'denied') {
          throw new IdeBridgeError('permission-denied', ideBridgeMessages.permissionDenied());
        }
      }
      if (generation === cacheGeneration) ideList = { ides, at: clock.now() };
      return ides;
    });
    runningScan = thisScan;
    const forget = () => {
      if (runningScan === thisScan) runningScan = undefined;
    };
    thisScan.then(forget, forget);
    return thisScan;
  };

  async function findRunningIdes(findOptions: FindRunningIdesOptions = {}): Promise<DiscoveredIde[]> {
    if (findOptions.waitForConfirmation && confirmations.size > 0) {
      await Promise.all(confirmations.values());
      findOptions = { ...findOptions, force: true };
    }
    if (!findOptions.force && ideList && isFresh(ideList.at)) return [...ideList.ides];
    const state = await permission();
    // 'denied' does not stop the scan: a blocked request fails at once without asking the visitor, and the
    // permission API says 'denied' on some pages whose requests do go through. An empty scan explains it.
    if (state === 'prompt' && !findOptions.userGesture) {
      // Probing now would put a permission prompt in front of a visitor who has not asked for anything.
      publish({ status: 'awaiting-gesture' });
      return [];
    }
    try {
      const ides = await scanNow();
      publish({ status: 'found', ides: [...ides], groups: groupIdesByName(ides) });
      return [...ides];
    } catch (error) {
      if (error instanceof IdeBridgeError) publish({ status: 'failed', error });
      throw error;
    }
  }

  const poll = async (chain: number, force: boolean) => {
    try {
      await findRunningIdes({ force });
    } catch {
      // Subscribers have been told through publish().
    }
    if (chain === pollChain) {
      pollTimer = clock.setTimeout(() => {
        pollTimer = undefined;
        void poll(chain, true);
      }, RUNNING_IDE_POLL_INTERVAL_MS);
    }
  };

  function clearCache(): void {
    ideList = undefined;
    compatibility.clear();
    cacheGeneration++;
    // Subscribers should not keep showing an IDE that may be gone until the next poll: look again now.
    if (listeners.size > 0 && pollTimer !== undefined) {
      clock.clearTimeout(pollTimer);
      pollTimer = undefined;
      void poll(pollChain, true);
    }
  }

  const targetOf = (ide: RunningIde): IdeTarget => ({ port: ide.port, name: ide.name });

  async function installPlugin(
    ide: RunningIde,
    pluginId: string,
    installOptions: InstallOptions = {},
  ): Promise<void> {
    const id = requirePluginId(pluginId);
    const target = targetOf(requireIde(ide));
    const { onAwaitingConfirmation } = installOptions;
    // Armed only when someone listens: a timer nobody needs would also move the tests' fake clocks.
    const notice = onAwaitingConfirmation && clock.setTimeout(onAwaitingConfirmation, CONFIRMATION_NOTICE_MS);
    try {
      const answer = await callIde(
        transport,
        target,
        '/api/installPlugin',
        { action: 'install', pluginId: id },
        confirmationTimeoutMs,
        () =>
          new IdeBridgeError('confirmation-timeout', ideBridgeMessages.confirmationTimeout(target.name), {
            port: target.port,
          }),
      );
      if (answer.status !== 200) throw unexpectedAnswer(target, answer, `HTTP ${answer.status}`);
    } catch (error) {
      // The IDE may have quit or changed: the spec drops what is known about running IDEs.
      clearCache();
      throw error;
    } finally {
      if (notice) clock.clearTimeout(notice);
    }
  }

  async function checkCompatibility(
    ide: RunningIde,
    pluginIds: readonly string[],
  ): Promise<ReadonlyMap<string, boolean>> {
    if (!Array.isArray(pluginIds)) throw new TypeError('pluginIds must be an array of plugin ids.');
    const ids = [...new Set(pluginIds.map(requirePluginId))];
    const address = requireIde(ide);
    const target = targetOf(address);
    const keyOf = (id: string) => `${address.port}\n${address.buildNumber}\n${id}`;
    const missing = ids.filter((id) => {
      const entry = compatibility.get(keyOf(id));
      return !entry || !isFresh(entry.at);
    });

    if (missing.length > 0) {
      const generation = cacheGeneration;
      const query =
        missing.length === 1
          ? { action: 'checkCompatibility', pluginId: missing[0] }
          : { action: 'checkCompatibility', pluginIds: JSON.stringify(missing) };
      const answer = await callIde(transport, target, '/api/installPlugin', query, requestTimeoutMs);
      const body = answer.status === 200 ? parseJson(answer.body) : undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw unexpectedAnswer(target, answer, `HTTP ${answer.status} without a compatibility answer`);
      }
      const values = body as Record<string, unknown>;
      const at = clock.now();
      for (const id of missing) {
        // One id asked with pluginId comes back as {"compatible": ...}; ids in a pluginIds array by name.
        const value = missing.length === 1 && 'compatible' in values ? values.compatible : values[id];
        const entry = { compatible: typeof value === 'boolean' ? value : undefined, at };
        if (generation === cacheGeneration) compatibility.set(keyOf(id), entry);
      }
    }

    const result = new Map<string, boolean>();
    for (const id of ids) {
      const compatible = compatibility.get(keyOf(id))?.compatible;
      if (compatible !== undefined) result.set(id, compatible);
    }
    return result;
  }

  /** Makes sure EduTools is installed, installing it and waiting for it when it is not. */
  async function ensureEduTools(ide: RunningIde): Promise<void> {
    const target = targetOf(ide);
    const isInstalled = async () => {
      const answer = await callIde(transport, target, '/api/edu/marketplace/info', {}, requestTimeoutMs);
      if (answer.status === 200) return true;
      if (answer.status === 404) return false;
      throw unexpectedAnswer(target, answer, `HTTP ${answer.status} from the EduTools check`);
    };
    if (await isInstalled()) return;
    await installPlugin(ide, EDU_PLUGIN_XML_ID);
    for (let attempt = 0; attempt < COURSE_PLUGIN_RECHECK_TRIES; attempt++) {
      await sleep(clock, COURSE_PLUGIN_RECHECK_INTERVAL_MS);
      if (await isInstalled()) return;
    }
    throw new IdeBridgeError(
      'refused',
      `${ide.name} has not installed EduTools, which opens courses. Finish or accept its installation in ` +
        'the IDE, then try again.',
      { port: ide.port },
    );
  }

  async function openInEduTools(ide: RunningIde, path: string, query: Record<string, string | undefined>) {
    await ensureEduTools(ide);
    const target = targetOf(ide);
    const answer = await callIde(transport, target, path, query, requestTimeoutMs);
    if (answer.status === 200) return;
    if (answer.status === 404) {
      throw new IdeBridgeError('refused', `${ide.name} could not open this course.`, {
        port: ide.port,
        status: 404,
      });
    }
    throw unexpectedAnswer(target, answer, `HTTP ${answer.status} when opening the course`);
  }

  async function isCompatible(ide: RunningIde, pluginId: string): Promise<boolean> {
    return (await checkCompatibility(ide, [pluginId])).get(requirePluginId(pluginId)) === true;
  }

  async function openCourse(ide: RunningIde, courseId: number): Promise<void> {
    const id = requireCourseId(courseId);
    await openInEduTools(requireIde(ide), '/api/edu/marketplace', { course_id: String(id) });
  }

  async function openLtiCourse(ide: RunningIde, launch: LtiLaunch): Promise<void> {
    // Checked although typed: plain-JavaScript pages call the bridge too.
    const courseId = requireCourseId(launch?.marketplaceCourseId);
    await openInEduTools(requireIde(ide), '/api/edu/lti', {
      marketplace_course_id: String(courseId),
      launch_id: launch.launchId,
      study_item_id: launch.studyItemId,
      lms_description: launch.lmsDescription,
    });
  }

  return {
    findRunningIdes,
    subscribe(listener) {
      listeners.add(listener);
      if (lastUpdate) listener(lastUpdate);
      // The first look may use the cached list; the polls after it scan again.
      if (listeners.size === 1) void poll(++pollChain, false);
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        pollChain++;
        if (pollTimer !== undefined) clock.clearTimeout(pollTimer);
        pollTimer = undefined;
      };
    },
    localNetworkPermission: () => permission(),
    installPlugin,
    checkCompatibility,
    isCompatible,
    openCourse,
    openLtiCourse,
    clearCache,
  };
}
