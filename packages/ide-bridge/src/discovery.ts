import { productKeyFromBuildNumber } from '@marketplace/core';
import type { IdeProductKey, RunningIde } from '@marketplace/core';
import { getFromIde, parseJson } from './transport';
import type { TransportDependencies } from './transport';

/**
 * An IDE running on the visitor's machine: core's `RunningIde` (name, build number, port) and its product's
 * key. The key, not the whole catalogue entry, so that pages embedding the bridge do not carry the catalogue;
 * `IDE_PRODUCTS[key]` gives titles and editions where they are shown.
 */
export interface DiscoveredIde extends RunningIde {
  /** The product the build number's code names; undefined for a code the catalogue does not know. */
  productKey: IdeProductKey | undefined;
}

/** The IDEs of one name, for the install dropdown (two running copies of one IDE share a name). */
export interface IdeGroup {
  name: string;
  ides: DiscoveredIde[];
}

/** Where to look: ports from `start` upward, stopping after `maxFailedPorts` failures or `maxAttempts` ports. */
export interface PortRange {
  start: number;
  maxAttempts: number;
  maxFailedPorts: number;
}

export type ScanStrategy = 'concurrent' | 'sequential';

/** What one port gave: an IDE, or the reason it counts as a failed port. */
export type ProbeResult =
  | { port: number; ide: DiscoveredIde }
  | {
      port: number;
      ide?: undefined;
      /** 'awaiting-confirmation': no answer within the probe timeout; the IDE may be asking its user. */
      failure: 'closed' | 'timeout' | 'refused' | 'rate-limited' | 'not-an-ide' | 'awaiting-confirmation';
    };

/**
 * Asks one port for the IDE's product info (`GET /api/installPlugin`), which carries the build number with
 * its product code. Anything but that answer makes the port a failed one.
 */
export async function probePort(
  dependencies: TransportDependencies,
  port: number,
  timeoutMs: number,
): Promise<ProbeResult> {
  const answer = await getFromIde(dependencies, port, '/api/installPlugin', {}, timeoutMs);
  if (typeof answer === 'string') return { port, failure: answer };
  if (answer.status === 403) return { port, failure: 'refused' };
  if (answer.status === 429) return { port, failure: 'rate-limited' };
  const info = answer.status === 200 ? parseJson(answer.body) : undefined;
  if (typeof info !== 'object' || info === null) return { port, failure: 'not-an-ide' };
  const { name, buildNumber } = info as Record<string, unknown>;
  if (typeof name !== 'string' || typeof buildNumber !== 'string' || name.trim() === '') {
    return { port, failure: 'not-an-ide' };
  }
  return { port, ide: { name, buildNumber, port, productKey: productKeyFromBuildNumber(buildNumber) } };
}

/** The spec's scan, one port after the other: the reference answer. */
export async function scanSequentially(
  range: PortRange,
  probe: (port: number) => Promise<ProbeResult>,
): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  let failures = 0;
  for (let index = 0; index < range.maxAttempts && failures < range.maxFailedPorts; index++) {
    const result = await probe(range.start + index);
    results.push(result);
    if (!result.ide) failures++;
  }
  return results;
}

/**
 * The same answer as {@link scanSequentially}, sooner: every port the sequential scan is certain to reach,
 * whatever the ports still unanswered turn out to be, is probed at once. With F failures seen and the next
 * unanswered ports assumed to fail, the scan surely reaches ports until failures could hit the limit; so
 * with no IDE both first ports go out together, and no port beyond the sequential stop is ever probed (each
 * probe counts against the IDE's rate limit).
 */
export function scanConcurrently(
  range: PortRange,
  probe: (port: number) => Promise<ProbeResult>,
): Promise<ProbeResult[]> {
  const results = new Map<number, ProbeResult>();
  const launched = new Set<number>();

  return new Promise((resolve) => {
    const advance = () => {
      let failures = 0;
      let index = 0;
      for (; index < range.maxAttempts; index++) {
        const result = results.get(index);
        if (result === undefined) break;
        if (!result.ide) failures++;
        if (failures >= range.maxFailedPorts) {
          index++;
          break;
        }
      }
      if (failures >= range.maxFailedPorts || index >= range.maxAttempts) {
        resolve(Array.from({ length: index }, (_, position) => results.get(position) as ProbeResult));
        return;
      }
      let worstCaseFailures = failures;
      for (let next = index; next < range.maxAttempts && worstCaseFailures < range.maxFailedPorts; next++) {
        const known = results.get(next);
        if (known?.ide) continue;
        worstCaseFailures++;
        if (known === undefined && !launched.has(next)) {
          launched.add(next);
          void probe(range.start + next).then((result) => {
            results.set(next, result);
            advance();
          });
        }
      }
    };
    advance();
  });
}

/** Groups IDEs by name in the order they were found, for the install dropdown. */
export function groupIdesByName(ides: readonly DiscoveredIde[]): IdeGroup[] {
  const groups = new Map<string, IdeGroup>();
  for (const ide of ides) {
    let group = groups.get(ide.name);
    if (!group) {
      group = { name: ide.name, ides: [] };
      groups.set(ide.name, group);
    }
    group.ides.push(ide);
  }
  return [...groups.values()];
}
