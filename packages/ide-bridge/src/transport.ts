import type { Clock } from './clock';
import { IdeBridgeError, ideBridgeMessages } from './errors';
import type { LocalNetworkPermissionSource } from './permission';

/** The address the IDE's built-in web server listens on (it does not listen on ::1, which `localhost` may be). */
export const IDE_HOST = '127.0.0.1';

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** Chromium's Local Network Access hint: the request goes to this machine. Other browsers ignore it. */
export type IdeRequestInit = RequestInit & { targetAddressSpace: 'loopback' };

export interface TransportDependencies {
  fetch: FetchFunction;
  clock: Clock;
  permission: LocalNetworkPermissionSource;
  /**
   * Set once anything on loopback has answered. The permission API can say 'denied' where requests still go
   * through (a plain-http page on this machine under another host name): after an answer, a request that
   * gets none means the IDE has gone, not that the browser blocks it.
   */
  reachability: { anyAnswer: boolean };
}

export interface IdeAnswer {
  status: number;
  body: string;
}

/** Why a request got no usable answer. */
export type IdeCallFailure = 'closed' | 'timeout';

export interface IdeTarget {
  port: number;
  /** Named in messages; the port when the IDE is not known yet. */
  name: string;
}

function urlFor(port: number, path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return `http://${IDE_HOST}:${port}${path}${text ? `?${text}` : ''}`;
}

/**
 * One GET to the IDE, body included, within `timeoutMs`. Resolves with any HTTP answer, or with the reason
 * nothing usable came back; never rejects, so that a scan can treat a closed port as an ordinary result.
 */
export async function getFromIde(
  dependencies: TransportDependencies,
  port: number,
  path: string,
  query: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<IdeAnswer | IdeCallFailure> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = dependencies.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const init: IdeRequestInit = {
    method: 'GET',
    mode: 'cors',
    credentials: 'omit',
    cache: 'no-store',
    signal: controller.signal,
    targetAddressSpace: 'loopback',
  };
  try {
    const response = await dependencies.fetch(urlFor(port, path, query), init);
    dependencies.reachability.anyAnswer = true;
    return { status: response.status, body: await response.text() };
  } catch {
    // Browsers report a refused connection, a CORS failure and a blocked request alike, as a TypeError.
    return timedOut ? 'timeout' : 'closed';
  } finally {
    dependencies.clock.clearTimeout(timer);
  }
}

/**
 * Like {@link getFromIde}, for a known IDE: failures become an {@link IdeBridgeError} of the right kind, and
 * so do 403 and 429. Other statuses are the caller's to read.
 */
export async function callIde(
  dependencies: TransportDependencies,
  target: IdeTarget,
  path: string,
  query: Record<string, string | undefined>,
  timeoutMs: number,
  timeoutError = () =>
    new IdeBridgeError('network', ideBridgeMessages.timeout(target.name, timeoutMs), { port: target.port }),
): Promise<IdeAnswer> {
  const answer = await getFromIde(dependencies, target.port, path, query, timeoutMs);
  const details = { port: target.port };
  if (answer === 'timeout') throw timeoutError();
  if (answer === 'closed') {
    if (!dependencies.reachability.anyAnswer && (await dependencies.permission()) === 'denied') {
      throw new IdeBridgeError('permission-denied', ideBridgeMessages.permissionDenied(), details);
    }
    throw new IdeBridgeError('no-ide', ideBridgeMessages.noIde(target.name), details);
  }
  const withStatus = { ...details, status: answer.status };
  if (answer.status === 403) {
    throw new IdeBridgeError('refused', ideBridgeMessages.refused(target.name), withStatus);
  }
  if (answer.status === 429) {
    throw new IdeBridgeError('rate-limited', ideBridgeMessages.rateLimited(target.name), withStatus);
  }
  return answer;
}

export function unexpectedAnswer(target: IdeTarget, answer: IdeAnswer, what: string): IdeBridgeError {
  return new IdeBridgeError('network', ideBridgeMessages.unexpected(target.name, what), {
    port: target.port,
    status: answer.status,
  });
}

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
