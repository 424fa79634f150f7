import { ApiError, NetworkError, isApiError, isNetworkError } from '@marketplace/api-client';
import type { HydrationState } from 'react-router';

/**
 * The data a server-rendered page was drawn from, embedded once in its HTML as
 * `<script type="application/json" id="mp-page-data">` (data, not script: the CSP allows no inline script).
 * The browser reads it once at start, so hydration draws the same markup and asks the API for none of it.
 */
export const PAGE_DATA_ELEMENT_ID = 'mp-page-data';

/** A failed load as it travels in the page: enough to make the same error again (errors.ts reads these). */
export interface SerializedError {
  kind: 'api' | 'network' | 'error';
  message: string;
  status?: number;
  statusText?: string;
  type?: string;
  reportedStatus?: string | number;
  method?: string;
  url?: string;
}

/** How one `useLoad` ended on the server: its data (absent for undefined) or its error. */
export type LoadOutcome = { data?: unknown } | { error: SerializedError };

export interface PageData {
  /** The router's state for `createBrowserRouter(routes, { hydrationData })`: its loaders do not run again. */
  router: HydrationState;
  /** Each `useLoad` of the page by its key (see use-load.ts), as the server saw it. */
  loads: Record<string, LoadOutcome>;
  /** The page was drawn with the consent banner (the request carried no choice); hydration keeps it. */
  askConsent?: boolean;
  /**
   * The modules the page loads lazily that the server drew (the item page's tab), as the build's manifest
   * names them: the browser loads them before it hydrates (loadLazyModules), so it draws them at once too.
   */
  lazyModules?: string[];
}

export function serializeError(error: unknown): SerializedError {
  if (isApiError(error)) {
    return {
      kind: 'api',
      message: error.message,
      status: error.status,
      statusText: error.statusText,
      type: error.type,
      reportedStatus: error.reportedStatus,
      method: error.method,
      url: error.url,
    };
  }
  if (isNetworkError(error))
    return { kind: 'network', message: error.message, method: error.method, url: error.url };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

export function reviveError(error: SerializedError): Error {
  const call = { method: error.method ?? 'GET', url: error.url ?? '' };
  if (error.kind === 'api') {
    return new ApiError({
      ...call,
      status: error.status ?? 500,
      statusText: error.statusText ?? '',
      type: error.type ?? 'warning',
      reportedStatus: error.reportedStatus ?? error.status ?? 500,
      message: error.message,
    });
  }
  if (error.kind === 'network') return new NetworkError(call, undefined, error.message);
  return new Error(error.message);
}

/**
 * Whether the browser keeps a server outcome rather than asking again after hydration: data, and refusals
 * (4xx: the item does not exist for a guest). A server fault or an unreachable API is asked again.
 */
export function isSettledOutcome(outcome: LoadOutcome): boolean {
  if (!('error' in outcome)) return true;
  const { status } = outcome.error;
  return outcome.error.kind === 'api' && status !== undefined && status >= 400 && status < 500;
}

/** JSON for the page: `<` is written as \u003c, so no text in it can close the script element. */
export function pageDataJson(data: PageData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

let hydrating: Map<string, LoadOutcome> | undefined;
let pageAskedConsent = false;

/** The page's embedded data, when the server rendered it. */
export function readPageData(doc: Document = document): PageData | undefined {
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as PageData;
    return typeof data === 'object' && data !== null && typeof data.loads === 'object' ? data : undefined;
  } catch (error) {
    console.warn('The page data could not be read; the page loads its data itself.', error);
    return undefined;
  }
}

/** From now until endHydration, `useLoad` starts from the page's outcomes. */
export function startHydration(data: PageData): void {
  hydrating = new Map(Object.entries(data.loads));
  pageAskedConsent = data.askConsent === true;
}

/**
 * Ends the use of the page's data (at the first navigation): a later page at the same place in the tree
 * loads its own.
 */
export function endHydration(): void {
  hydrating = undefined;
}

/** Whether the page is still the one the server rendered (until the first navigation). */
export function isHydrating(): boolean {
  return hydrating !== undefined;
}

export function hydrationOutcome(key: string): LoadOutcome | undefined {
  return hydrating?.get(key);
}

/** Whether the server drew this page with the consent banner, so the banner starts shown and nothing moves. */
export function consentAskedByPage(): boolean {
  return pageAskedConsent;
}

const lazyModuleLoaders = new Map<string, () => Promise<unknown>>();

/** Names how to load a module a page loads lazily (lazyPart registers its own), for loadLazyModules. */
export function registerLazyModule(module: string, load: () => Promise<unknown>): void {
  lazyModuleLoaders.set(module, load);
}

/**
 * Loads the lazily loaded modules the server drew into the page, once the page's own module has registered
 * them (the server preloads their files, so they are usually there already).
 */
export async function loadLazyModules(data: PageData): Promise<void> {
  await Promise.all((data.lazyModules ?? []).map((module) => lazyModuleLoaders.get(module)?.()));
}
