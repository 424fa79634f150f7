/**
 * The site's server render (built by `vite build` into dist/server/entry-server.js, loaded by the server's
 * site-hosting): the public pages as HTML from the same components the browser runs, with the data they
 * were drawn from, so the browser hydrates them instead of drawing them again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SiteLinks } from '@marketplace/api-contract';
import { UI_STYLES } from '@marketplace/ui';
import type { WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import { setServerFetch } from './lib/api';
import {
  isSettledOutcome,
  pageDataJson,
  serializeError,
  type LoadOutcome,
  type PageData,
} from './lib/page-data';
import { sanitizeHtml, sanitizeWithWindow } from './lib/sanitize';
import { ServerRenderContext, type PageHead, type ServerLoads, type ServerRender } from './lib/server-render';
import { routes, type SiteRouteHandle } from './router';

/** The components' CSS, which the server serves as a stylesheet for the first paint (site-hosting). */
export { UI_STYLES };

export interface RenderRequest {
  /** The address asked for: path and query. */
  url: string;
  /** The server's public URL, without a trailing slash. */
  publicUrl: string;
  /** The footer's external links the operator set. */
  links: SiteLinks;
  /** The request carries no consent choice: the page is drawn with the consent banner. */
  askConsent?: boolean;
  /** Answers the page's API calls as they would be answered to a signed-out visitor. */
  fetch: typeof fetch;
  /** Told of each error the render met (then it gives no page): the server logs them. */
  onError?: (error: unknown) => void;
  /** How long the render may take in all: the server waits no longer, and a pass still running then stops. */
  timeoutMs: number;
}

export interface RenderedPage {
  /** 200, or 404 when the page is the not-found page. */
  status: number;
  /** The markup of the page's root element. */
  html: string;
  /** What the page said about itself for the head; undefined when it named no title. */
  head: PageHead | undefined;
  /** The page's data as the JSON of its mp-page-data element (`<` escaped). */
  pageData: string;
  /** The page modules of the matched routes (as the build's manifest names them), to preload. */
  modules: string[];
}

/**
 * How often a page is rendered at most: each render starts the loads it finds new (a tab's reviews once the
 * item is known), the next one draws their answers. The item page with its reviews needs three.
 */
const MAX_PASSES = 6;
/** A load that takes longer is left to the browser (the page shows it loading, as before). */
const LOAD_TIMEOUT_MS = 10_000;

const renderFetch = new AsyncLocalStorage<typeof fetch>();
setServerFetch(() => renderFetch.getStore());

let domGiven = false;
/** DOMPurify needs a DOM to sanitise descriptions and notes: jsdom's, made once. */
function giveDomToSanitizer(): void {
  if (domGiven) return;
  sanitizeWithWindow(new JSDOM('').window as unknown as WindowLike);
  domGiven = true;
}

const handler = createStaticHandler(routes);

/** The loads of one page render, over its passes. */
class RenderLoads implements ServerLoads {
  readonly outcomes = new Map<string, LoadOutcome>();
  /** Keys the last pass looked up: the page's data carries these only. */
  readonly used = new Set<string>();
  private readonly running = new Set<string>();
  private started: Promise<void>[] = [];

  constructor(
    private readonly fetch: typeof globalThis.fetch,
    private readonly signal: AbortSignal,
  ) {}

  outcome(key: string): LoadOutcome | undefined {
    this.used.add(key);
    return this.outcomes.get(key);
  }

  start(key: string, load: (signal: AbortSignal) => Promise<unknown>): void {
    this.used.add(key);
    if (this.running.has(key) || this.outcomes.has(key)) return;
    this.running.add(key);
    const settled = renderFetch
      .run(this.fetch, async () => load(this.signal))
      .then(
        // Through JSON, as the browser will read it, so both draw the same markup.
        (data): LoadOutcome => (data === undefined ? {} : { data: JSON.parse(JSON.stringify(data)) }),
        (error: unknown): LoadOutcome => ({ error: serializeError(error) }),
      )
      .then((outcome) => {
        this.outcomes.set(key, outcome);
      });
    this.started.push(settled);
  }

  /** Begins a pass. */
  beginPass(): void {
    this.used.clear();
  }

  /**
   * Waits for the loads the last pass started, or until the render's deadline (a load that does not heed its
   * signal must not hold the render and its place among the server's renders); false when it started none.
   */
  async settle(deadline: AbortSignal): Promise<boolean> {
    const started = this.started;
    this.started = [];
    if (started.length === 0) return false;
    const passed = new Promise<void>((resolve) => {
      if (deadline.aborted) resolve();
      else deadline.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(started), passed]);
    return true;
  }

  /**
   * Whether every load the last pass used has an outcome the browser keeps (data, or a refusal such as the
   * item's 404). A load still running, or one that failed (a server fault, the load time-out), drew the page
   * loading or failed: the browser loads it again, and that page must not be kept as the item's page.
   */
  allUsedSettled(): boolean {
    return [...this.used].every((key) => {
      const outcome = this.outcomes.get(key);
      return outcome !== undefined && isSettledOutcome(outcome);
    });
  }

  /** The outcomes the last pass used: what hydration will look up. */
  forPage(): Record<string, LoadOutcome> {
    const loads: Record<string, LoadOutcome> = {};
    for (const key of this.used) {
      const outcome = this.outcomes.get(key);
      if (outcome) loads[key] = outcome;
    }
    return loads;
  }
}

/** Why a pass gave no page: the render met an error (told to `onError`), or it went on past its time. */
class RenderFailed extends Error {}

/** The markup a stream wrote, as one string. */
async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/**
 * One render of the page by React DOM's static renderer (`prerenderToNodeStream`): it waits for every part that
 * suspends (a lazily loaded tab, the install button) and writes the whole page once all are drawn, each part in
 * place (`progressiveChunkSize: Infinity`: a large finished part is never sent apart with the inline script that
 * would move it, which the CSP refuses).
 *
 * An error is a failed pass, not a page: React's server renderer runs no error boundary (React Router's route
 * error is drawn by the browser only), so an error outside any Suspense boundary ends the render, and one inside
 * a boundary would be left for the browser to draw again (the boundary's fallback in the HTML). Either way
 * `onError` hears of it and the pass throws RenderFailed.
 */
async function renderPass(
  router: ReturnType<typeof createStaticRouter>,
  context: StaticHandlerContext,
  server: ServerRender,
  signal: AbortSignal,
  onError: ((error: unknown) => void) | undefined,
): Promise<string> {
  const errors: unknown[] = [];
  let html = '';
  try {
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <ServerRenderContext.Provider value={server}>
          {/* No hydration script: the CSP allows none; the router's state travels in the page data. */}
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </ServerRenderContext.Provider>
      </StrictMode>,
      {
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        signal,
        onError(error) {
          errors.push(error);
        },
      },
    );
    html = await streamText(prelude);
  } catch (error) {
    // An error outside any boundary reaches onError too, before it ends the render: this is the same one.
    if (errors.length === 0) errors.push(error);
  }
  if (signal.aborted && errors.length === 0) errors.push(signal.reason);
  // The CSP runs no inline script: a page that would need one (React moving a part it sent late) is not sent.
  if (errors.length === 0 && html.includes('<script'))
    errors.push(new Error('The server render wrote an inline script, which the CSP would refuse.'));
  if (errors.length > 0) {
    // React tells each part left waiting of the same abort: the server hears of each error once.
    for (const error of new Set(errors)) onError?.(error);
    throw new RenderFailed('The page could not be rendered.');
  }
  return html;
}

/**
 * Renders the page at `request.url` as a signed-out visitor sees it. Undefined when the address is not a
 * page to render here (a redirect, a route that failed) or when a load of the page failed or had not ended
 * (the page would show "could not be loaded" or a spinner), or when the render met an error (told to
 * `request.onError`): the server then sends the page without content, not kept by any cache, and the browser
 * loads it.
 */
export async function render(request: RenderRequest): Promise<RenderedPage | undefined> {
  giveDomToSanitizer();
  const context = await handler.query(new Request(new URL(request.url, 'http://localhost')));
  if (context instanceof Response || context.errors) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);
  const loads = new RenderLoads(request.fetch, AbortSignal.timeout(LOAD_TIMEOUT_MS));
  const deadline = AbortSignal.timeout(request.timeoutMs);
  let html = '';
  let server: ServerRender;
  for (let pass = 1; ; pass++) {
    loads.beginPass();
    server = {
      origin: request.publicUrl,
      links: request.links,
      askConsent: request.askConsent ?? false,
      loads,
      head: undefined,
      sanitizeHtml,
      lazyModules: new Set(),
    };
    try {
      html = await renderPass(router, context, server, deadline, request.onError);
    } catch (error) {
      if (error instanceof RenderFailed) return undefined;
      throw error;
    }
    // Past the deadline the next pass fails at once (told to onError); the last one leaves loads unsettled.
    if (pass >= MAX_PASSES || !(await loads.settle(deadline))) break;
  }
  if (!loads.allUsedSettled()) return undefined;
  const data: PageData = {
    router: { loaderData: context.loaderData, actionData: context.actionData, errors: null },
    loads: loads.forPage(),
    askConsent: server.askConsent || undefined,
    lazyModules: server.lazyModules.size > 0 ? [...server.lazyModules] : undefined,
  };
  const modules = [
    ...context.matches
      .map((match) => (match.route.handle as SiteRouteHandle | undefined)?.module)
      .filter((module): module is string => module !== undefined),
    ...server.lazyModules,
  ];
  return {
    status: server.head?.status ?? context.statusCode,
    html,
    head: server.head,
    pageData: pageDataJson(data),
    modules,
  };
}
