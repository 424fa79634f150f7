import type { RunningIde } from '@marketplace/core';
import type { FindRunningIdesOptions } from '@marketplace/ide-bridge';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IdeBridge } from './ide-bridge';

export type RunningIdesState =
  | { status: 'pending'; ides: readonly RunningIde[] }
  /** The browser would ask the visitor before the first look: call `lookNow` from a click. */
  | { status: 'awaiting-gesture'; ides: readonly RunningIde[] }
  | { status: 'resolved'; ides: readonly RunningIde[] }
  | { status: 'rejected'; ides: readonly RunningIde[] };

export interface UseRunningIdesOptions {
  /** Only IDEs the plugin is compatible with. */
  pluginXmlId?: string;
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

async function compatibleIdes(bridge: IdeBridge, ides: RunningIde[], pluginXmlId: string) {
  const answers = await Promise.all(
    ides.map((ide) => bridge.isCompatible(ide, pluginXmlId).catch(() => false)),
  );
  return ides.filter((_, index) => answers[index]);
}

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
      return pluginXmlId === undefined ? accepted : compatibleIdes(bridge, accepted, pluginXmlId);
    },
    [bridge, pluginXmlId],
  );

  const publish = useCallback((next: RunningIdesState) => {
    if (!mounted.current) return;
    setState(next);
    if (next.status === 'resolved' || next.status === 'rejected') optionsRef.current.onIdes?.(next.ides);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const access = await bridge.localNetworkPermission().catch(() => 'granted');
      if (cancelled) return;
      if (access === 'prompt') {
        publish({ status: 'awaiting-gesture', ides: [] });
      } else {
        try {
          const ides = await find();
          if (cancelled) return;
          publish({ status: 'resolved', ides });
        } catch {
          if (cancelled) return;
          publish({ status: 'rejected', ides: [] });
        }
      }
      if (!cancelled && pollIntervalMs !== undefined) timer = setTimeout(() => void poll(), pollIntervalMs);
    };
    // After a reset the list is already cleared; when polling, the next look waits for its usual turn.
    if (generation > 0 && pollIntervalMs !== undefined) timer = setTimeout(() => void poll(), pollIntervalMs);
    else void poll();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [bridge, find, publish, pollIntervalMs, generation]);

  const reset = useCallback(() => {
    bridge.clearCache();
    setState({ status: 'resolved', ides: [] });
    setGeneration((value) => value + 1);
  }, [bridge]);

  const lookNow = useCallback(async () => {
    publish({ status: 'pending', ides: [] });
    try {
      const ides = await find({ userGesture: true, force: true });
      publish({ status: 'resolved', ides });
      return ides;
    } catch {
      publish({ status: 'rejected', ides: [] });
      return [];
    }
  }, [find, publish]);

  return { state, reset, lookNow };
}
