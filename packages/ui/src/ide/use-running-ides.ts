import type { RunningIde } from '@marketplace/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IdeBridge } from './ide-bridge';

export type RunningIdesState =
  | { status: 'pending'; ides: readonly RunningIde[] }
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
}

async function compatibleIdes(bridge: IdeBridge, ides: RunningIde[], pluginXmlId: string) {
  const answers = await Promise.all(
    ides.map((ide) => bridge.isCompatible(ide, pluginXmlId).catch(() => false)),
  );
  return ides.filter((_, index) => answers[index]);
}

/** The running IDEs, found once and then re-polled; a failed search counts as no IDE. */
export function useRunningIdes(bridge: IdeBridge, options: UseRunningIdesOptions = {}): RunningIdes {
  const { pluginXmlId, pollIntervalMs } = options;
  const [state, setState] = useState<RunningIdesState>({ status: 'pending', ides: [] });
  const [generation, setGeneration] = useState(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const running = await bridge.findRunningIdes();
        const filter = optionsRef.current.filter;
        const accepted = filter ? running.filter(filter) : running;
        const ides =
          pluginXmlId === undefined ? accepted : await compatibleIdes(bridge, accepted, pluginXmlId);
        if (cancelled) return;
        setState({ status: 'resolved', ides });
        optionsRef.current.onIdes?.(ides);
      } catch {
        if (cancelled) return;
        setState({ status: 'rejected', ides: [] });
        optionsRef.current.onIdes?.([]);
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
  }, [bridge, pluginXmlId, pollIntervalMs, generation]);

  const reset = useCallback(() => {
    bridge.clearCache();
    setState({ status: 'resolved', ides: [] });
    setGeneration((value) => value + 1);
  }, [bridge]);

  return { state, reset };
}
