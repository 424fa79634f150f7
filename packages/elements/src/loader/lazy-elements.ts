import { WidgetSetupError } from './setup-core';

/** For each element, the files (relative to the loader) its definition needs; the build writes them. */
export type ElementChunks = Readonly<Record<string, readonly string[]>>;

/** Imports one ES module by URL; a test passes its own. */
export type ModuleImporter = (url: string) => Promise<unknown>;

/** Loads an element's definition; resolves whether the element is defined afterwards. */
export type ElementLoader = (name: string) => Promise<boolean>;

/**
 * Makes the loader of the split SDK: the first request for an element imports all of its chunks at once (the
 * shared chunk downloads beside the element's, not after it), resolved against the loader's own URL so a page
 * on any site gets them from the marketplace. The element's chunk registers it. A failure is explained in the
 * console and tried again at the next request (the network may be back).
 */
export function createElementLoader(
  chunks: ElementChunks,
  baseUrl: string,
  importModule: ModuleImporter = (url) => import(/* @vite-ignore */ url),
): ElementLoader {
  const loading = new Map<string, Promise<boolean>>();
  return (name) => {
    if (customElements.get(name)) return Promise.resolve(true);
    const files = Object.hasOwn(chunks, name) ? chunks[name] : undefined;
    if (!files) return Promise.resolve(false);
    let load = loading.get(name);
    if (!load) {
      const urls = files.map((file) => new URL(file, baseUrl).href);
      load = Promise.all(urls.map((url) => importModule(url))).then(
        () => customElements.get(name) !== undefined,
        (error: unknown) => {
          loading.delete(name);
          console.error(
            new WidgetSetupError(`could not load <${name}> from ${urls.at(-1) ?? baseUrl}: ${String(error)}`),
          );
          return false;
        },
      );
      loading.set(name, load);
    }
    return load;
  };
}

/**
 * Loads each of `names` the first time one appears in the document: those already there, and those the
 * page adds later (parsed after the loader ran, or created by script). Stops watching once every element
 * has been asked for. Elements inside a shadow root of the host's own are not seen: the host calls
 * `MarketplaceWidget.loadElement(name)` for them. Returns a function that stops the watch.
 */
export function watchForElements(
  names: readonly string[],
  load: ElementLoader,
  root: Document = document,
): () => void {
  const waiting = new Set(names);
  const selector = names.join(',');
  let watching = false;
  let stopped = false;
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) found(node);
  });

  function watch(): void {
    if (watching || stopped || waiting.size === 0) return;
    observer.observe(root, { childList: true, subtree: true });
    watching = true;
  }

  function request(name: string): void {
    if (!waiting.delete(name)) return;
    void load(name).then((defined) => {
      if (defined || customElements.get(name) !== undefined) return;
      // A failed load waits for the next element of that name (the loader tries again then).
      waiting.add(name);
      watch();
    });
    if (waiting.size === 0 && watching) {
      observer.disconnect();
      watching = false;
    }
  }

  function found(node: Node): void {
    if (node.nodeType !== Node.ELEMENT_NODE || waiting.size === 0) return;
    const element = node as Element;
    request(element.localName);
    if (element.firstElementChild)
      for (const inner of element.querySelectorAll(selector)) request(inner.localName);
  }

  for (const element of root.querySelectorAll(selector)) request(element.localName);
  watch();
  return () => {
    stopped = true;
    observer.disconnect();
  };
}
