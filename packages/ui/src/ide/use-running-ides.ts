import type { RunningIde } from '@marketplace/core';
import type { FindRunningIdesOptions } from '@marketplace/ide-bridge';
import { IDE_BRIDGE_ERROR_KINDS, isIdeBridgeError } from '@marketplace/ide-bridge';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IdeBridge } from './ide-bridge';
import { isCompatibleByMarketplace } from './item-compatibility';

export type RunningIdesState =
  | { status: 'pending'; ides: readonly RunningIde[] }
  /** The browser would ask the visitor before the first look: call `lookNow` from a click. */
  | { status: 'awaiting-gesture'; ides: readonly RunningIde[] }
  /** An IDE holds its answer while it asks its user whether to trust this page. */
  | { status: 'awaiting-confirmation'; ides: readonly RunningIde[] }
  | { status: 'resolved'; ides: readonly RunningIde[] }
  | { status: 'rejected'; ides: readonly RunningIde[] };

export interface UseRunningIdesOptions {
  /** Only IDEs the plugin is compatible with. */
  pluginXmlId?: string;
  /**
   * With `pluginXmlId`: this marketplace's address. Where the IDE does not know the plugin as compatible (an
   * item only this marketplace has), the marketplace's own rule decides.
   */
  marketplaceUrl?: string;
  /** Only IDEs accepted by this test (for example, the IDEs of a course's language). */
  filter?: (ide: RunningIde) => boolean;
  /** Ask again this often; no polling when undefined. */
  pollIntervalMs?: number;
  /** Called with every fresh list. */
  onIdes?: (ides: readonly RunningIde[]) => void;
}

export interface RunningIdes {
  state: RunningIdesState;
  /** Forgets the known IDEs and the bridge's cache; they are asked again at the next poll (at once without polling). */
  reset: () => void;
  /** Looks at once, as the answer to a click (the browser may ask for local network access); resolves to the IDEs found. */
  lookNow: () => Promise<readonly RunningIde[]>;
}

async function compatibleIdes(
  bridge: IdeBridge,
  ides: RunningIde[],
  pluginXmlId: string,
  marketplaceUrl: string | undefined,
) {
  const answers = await Promise.all(
    ides.map(
      async (ide) =>
        (await bridge.isCompatible(ide, pluginXmlId).catch(() => false)) ||
        (marketplaceUrl !== undefined && (await isCompatibleByMarketplace(ide, pluginXmlId, marketplaceUrl))),
    ),
  );
  return ides.filter((_, index) => answers[index]);
}

const isAwaitingConfirmation = (error: unknown) =>
  isIdeBridgeError(error) && error.kind === IDE_BRIDGE_ERROR_KINDS.awaitingConfirmation;

/**
 * The running IDEs, found once and then re-polled; a failed search counts as no IDE. When the browser
 * would ask the visitor for local network access, nothing is probed until `lookNow` is called from a click.
 */
export function useRunningIdes(bridge: IdeBridge, options: UseRunningIdesOptions = {}): RunningIdes {
  const { pluginXmlId, pollIntervalMs } = options;
  const [state, setState] = useState<RunningIdesState>({ status: 'pending', ides: [] });
  const [generation, setGeneration] = useState(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const find = useCallback(
    async (findOptions?: FindRunningIdesOptions): Promise<RunningIde[]> => {
      const running = await bridge.findRunningIdes(findOptions);
      const filter = optionsRef.current.filter;
      const accepted = filter ? running.filter(filter) : running;
      return pluginXmlId === undefined
        ? accepted
        : compatibleIdes(bridge, accepted, pluginXmlId, optionsRef.current.marketplaceUrl);
    },
    [bridge, pluginXmlId],
  );

  const publish = useCallback((next: RunningIdesState) => {
    if (!mounted.current) return;
    setState(next);
    if (next.status === 'resolved' || next.status === 'rejected') optionsRef.current.onIdes?.(next.ides);
  }, []);

  /**
   * Looks, and when an IDE is asking its user whether to trust this page, says so and waits for the answer;
   * a failed search counts as no IDE.
   */
  const look = useCallback(
    async (findOptions: FindRunningIdesOptions, cancelled: () => boolean): Promise<readonly RunningIde[]> => {
      const attempt = (options: FindRunningIdesOptions) =>
        find(options).then(
          (ides) => ({ ides, failed: false, error: undefined as unknown }),
          (error: unknown) => ({ ides: [], failed: true, error }),
        );
      let result = await attempt(findOptions);
      if (!cancelled() && isAwaitingConfirmation(result.error)) {
        publish({ status: 'awaiting-confirmation', ides: [] });
        result = await attempt({ ...findOptions, waitForConfirmation: true });
      }
      if (!cancelled()) publish({ status: result.failed ? 'rejected' : 'resolved', ides: result.ides });
      return result.ides;
    },
    [find, publish],
  );

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const access = await bridge.localNetworkPermission().catch(() => 'granted');
      if (cancelled) return;
      if (access === 'prompt') publish({ status: 'awaiting-gesture', ides: [] });
      else await look({}, () => cancelled);
      if (!cancelled && pollIntervalMs !== undefined) timer = setTimeout(() => void poll(), pollIntervalMs);
    };
    // After a reset the list is already cleared; when polling, the next look waits for its usual turn.
    if (generation > 0 && pollIntervalMs !== undefined) timer = setTimeout(() => void poll(), pollIntervalMs);
    else void poll();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [bridge, look, publish, pollIntervalMs, generation]);

  const reset = useCallback(() => {
    bridge.clearCache();
    setState({ status: 'resolved', ides: [] });
    setGeneration((value) => value + 1);
  }, [bridge]);

  const lookNow = useCallback(async () => {
    publish({ status: 'pending', ides: [] });
    return look({ userGesture: true, force: true }, () => !mounted.current);
  }, [look, publish]);

  return { state, reset, lookNow };
}
