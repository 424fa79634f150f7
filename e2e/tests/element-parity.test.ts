import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AI_BUTTON_DEFAULT_TEXT, installSuccessToast } from '@marketplace/core';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { CatalogueItem, DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';
import { buildReactHostExample } from '../support/react-host';

/**
 * The five elements both ways they ship: from the script tag (mp-loader.js, preact/compat underneath r2wc) on a
 * plain page, and from the ESM build (`@marketplace/elements/react`) in a React 19 app (examples/react-host).
 * The same steps run on both pages and must see the same things: what each element draws from its
 * attributes, a property set from script (written through to the attribute, the new item drawn), an attribute
 * removed (the default again), the events each element dispatches, and an install through the IDE simulator.
 */

/** What one element did on one page: compared between the two pages, and checked against what is expected. */
interface ElementTranscript {
  tag: string;
  /** The text the element drew for its first item. */
  first: string;
  /** The items `embed:item-data` announced, in order: the attribute's item, then the property's. */
  itemIds: number[];
  /** The property read back, and the attribute it wrote. */
  property: string | undefined;
  attribute: string | null;
  /** The text the element drew for the property's item. */
  second: string;
  /** Every kind of event the element dispatched, sorted. */
  events: string[];
}

interface Step {
  tag: string;
  first: CatalogueItem;
  second: CatalogueItem;
  /** Attributes besides plugin-id and api-base. */
  attributes?: Record<string, string>;
}

/** The text a visitor reads in the element's shadow root, spaces collapsed. */
function drawnText(page: Page, tag: string): Promise<string> {
  return page.evaluate(
    (name) =>
      (document.querySelector(`#parity ${name}`)?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    tag,
  );
}

/** Puts the element on the page with its attributes and follows its events. */
async function addElement(page: Page, step: Step, apiBase: string): Promise<void> {
  await page.evaluate(
    ({ tag, attributes }) => {
      const events = ((window as unknown as { parityEvents?: Record<string, unknown[]> }).parityEvents ??=
        {});
      let container = document.getElementById('parity');
      if (!container) {
        container = document.createElement('section');
        container.id = 'parity';
        document.body.append(container);
      }
      const element = document.createElement(tag);
      const seen: unknown[] = (events[tag] = []);
      for (const type of [
        'embed:item-data',
        'embed:size',
        'embed:error',
        'install-button:install-success',
        'install-button:install-error',
        'ai-button:mounted',
        'ai-button:size',
        'ai-button:running-ides',
      ])
        element.addEventListener(type, (event) =>
          seen.push({
            type,
            itemId: (event as CustomEvent<{ item?: { id?: number } }>).detail?.item?.id,
          }),
        );
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      container.append(element);
    },
    {
      tag: step.tag,
      attributes: { 'plugin-id': String(step.first.id), 'api-base': apiBase, ...step.attributes },
    },
  );
}

/**
 * The element's text once it has stopped changing for a second: an element that talks to the IDE redraws as it
 * finds the running IDEs, at moments that differ from page to page.
 */
async function settledText(page: Page, tag: string): Promise<string> {
  let last = '';
  let same = 0;
  for (let reads = 0; reads < 60; reads++) {
    const text = await drawnText(page, tag);
    same = text === last && text !== '' ? same + 1 : 0;
    last = text;
    if (same >= 4) return text;
    await page.waitForTimeout(250);
  }
  throw new Error(`<${tag}> kept redrawing: last drew "${last}".`);
}

function itemIds(page: Page, tag: string): Promise<number[]> {
  return page.evaluate(
    (name) =>
      (
        (window as unknown as { parityEvents: Record<string, { type: string; itemId?: number }[]> })
          .parityEvents[name] ?? []
      )
        .filter((event) => event.type === 'embed:item-data')
        .map((event) => event.itemId ?? 0)
        // An element may announce the same item again as it redraws: the items in the order they came.
        .filter((id, index, ids) => id !== ids[index - 1]),
    tag,
  );
}

/** Runs the steps of one element on a page whose SDK has defined (or will define) the elements. */
async function exercise(page: Page, step: Step, apiBase: string): Promise<ElementTranscript> {
  await addElement(page, step, apiBase);
  await expect.poll(() => itemIds(page, step.tag), { timeout: 20_000 }).toEqual([step.first.id]);
  const first = await settledText(page, step.tag);
  const { property, attribute } = await page.evaluate(
    ({ tag, id }) => {
      const element = document.querySelector(`#parity ${tag}`) as HTMLElement & { pluginId?: string };
      element.pluginId = id;
      return { property: element.pluginId, attribute: element.getAttribute('plugin-id') };
    },
    { tag: step.tag, id: String(step.second.id) },
  );
  await expect
    .poll(() => itemIds(page, step.tag), { timeout: 20_000 })
    .toEqual([step.first.id, step.second.id]);
  const second = await settledText(page, step.tag);
  const events = await page.evaluate(
    (name) =>
      [
        ...new Set(
          (window as unknown as { parityEvents: Record<string, { type: string }[]> }).parityEvents[name]?.map(
            (event) => event.type,
          ),
        ),
      ].sort(),
    step.tag,
  );
  return {
    tag: step.tag,
    first,
    itemIds: [step.first.id, step.second.id],
    property,
    attribute,
    second,
    events,
  };
}

describe('the elements from the script tag and from the React build', () => {
  let marketplace: RunningMarketplace;
  let items: DemoItems;
  let secondCourse: CatalogueItem;
  let pages: RunningHttpServer;
  let pagesDir: string;
  let browser: Browser;
  let ide: IdeSimulator;
  const transcripts: Record<'script tag' | 'React 19 host', ElementTranscript[]> = {
    'script tag': [],
    'React 19 host': [],
  };

  beforeAll(async () => {
    marketplace = await startMarketplace();
    items = await findDemoItems(marketplace.origin);
    const courses = (await (
      await fetch(`${marketplace.origin}/api/searchPlugins?family=edu&orderBy=downloads&max=2`)
    ).json()) as { plugins: CatalogueItem[] };
    const other = courses.plugins.find((course) => course.id !== items.course.id);
    if (!other) throw new Error('The demo catalogue has fewer than two courses.');
    secondCourse = other;
    pagesDir = await mkdtemp(join(tmpdir(), 'element-parity-'));
    // The plain page: the loader alone, as a third-party page includes it.
    await writeFile(
      join(pagesDir, 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain page</title>` +
        `<script src="${marketplace.origin}/sdk/mp-loader.js" defer></script></head>` +
        `<body><h1>A plain page</h1></body></html>`,
    );
    buildReactHostExample(join(pagesDir, 'react-host'), marketplace.origin, '/react-host/');
    pages = await startTestHttpServer({ mounts: [{ prefix: '/', dir: pagesDir }] });
    browser = await launchChromium();
    ide = await startIdeSimulator({
      port: 63342,
      plugins: { [items.plugin.xmlId]: true, [items.ai.xmlId]: true },
      untrustedOrigins: 'accept',
    });
  });

  afterAll(async () => {
    await ide?.close();
    await browser?.close();
    await pages?.close();
    await marketplace?.close();
    if (pagesDir) await rm(pagesDir, { recursive: true, force: true });
  });

  const steps = (): Step[] => [
    { tag: 'mp-plugin-card', first: items.plugin, second: items.ai },
    { tag: 'mp-install-button', first: items.plugin, second: items.ai },
    {
      tag: 'mp-ai-button',
      first: items.ai,
      second: items.plugin,
      attributes: { 'button-text': 'Ask the assistant' },
    },
    { tag: 'mp-open-course', first: items.course, second: secondCourse },
    {
      tag: 'mp-course-lti',
      first: items.course,
      second: secondCourse,
      attributes: { 'launch-id': 'lti-launch-1', 'study-item-id': 'lesson-1' },
    },
  ];

  for (const [host, path] of [
    ['script tag', '/'],
    ['React 19 host', '/react-host/'],
  ] as const) {
    it(`${host}: attributes, properties, events and an install, for each of the five`, async () => {
      const { page, errors } = await openPage(browser);
      await page.goto(`http://${HOST_PAGE_HOST}:${pages.port}${path}?plugin=${items.plugin.id}`);
      if (host === 'React 19 host') {
        // The app defined the elements with its own React: the ESM build, not the script tag.
        await page.locator('h1').waitFor();
        expect(
          await page.evaluate(() => [...document.scripts].some((script) => script.src.includes('/sdk/'))),
        ).toBe(false);
      }
      for (const step of steps()) transcripts[host].push(await exercise(page, step, marketplace.origin));

      // A removed attribute gives its prop back to the view's default.
      const aiButton = page.locator('#parity mp-ai-button');
      await aiButton.getByRole('button', { name: 'Ask the assistant' }).waitFor();
      await aiButton.evaluate((element) => element.removeAttribute('button-text'));
      await aiButton.getByRole('button', { name: AI_BUTTON_DEFAULT_TEXT }).waitFor();

      // The install button (showing the second item now) installs through the IDE on the visitor's machine.
      const before = ide.requests.filter((request) => request.query.action === 'install').length;
      const install = page.locator('#parity mp-install-button');
      await install.getByRole('button', { name: `Install to ${ide.name}` }).click();
      await install
        .getByRole('status')
        .filter({ hasText: installSuccessToast(ide.name).message })
        .waitFor();
      const installs = ide.requests.filter((request) => request.query.action === 'install');
      expect(installs).toHaveLength(before + 1);
      expect(installs.at(-1)).toMatchObject({ status: 200, query: { pluginId: items.ai.xmlId } });
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { parityEvents: Record<string, { type: string }[]> }).parityEvents[
              'mp-install-button'
            ]?.some((event) => event.type === 'install-button:install-success'),
          ),
        )
        .toBe(true);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('both pages saw the same behaviour, element by element', () => {
    const scriptTag = transcripts['script tag'];
    expect(scriptTag.map((transcript) => transcript.tag)).toEqual(steps().map((step) => step.tag));
    for (const transcript of scriptTag) {
      // The property wrote through to the attribute and reads back as set.
      expect(transcript.attribute).toBe(String(transcript.itemIds[1]));
      expect(transcript.property).toBe(String(transcript.itemIds[1]));
      expect(transcript.events).toContain('embed:item-data');
      expect(transcript.events).toContain(
        transcript.tag === 'mp-ai-button' ? 'ai-button:size' : 'embed:size',
      );
    }
    expect(scriptTag.find((transcript) => transcript.tag === 'mp-plugin-card')?.first).toContain(
      items.plugin.name,
    );
    expect(scriptTag.find((transcript) => transcript.tag === 'mp-plugin-card')?.second).toContain(
      items.ai.name,
    );
    expect(scriptTag.find((transcript) => transcript.tag === 'mp-ai-button')?.first).toContain(
      'Ask the assistant',
    );
    expect(transcripts['React 19 host']).toEqual(scriptTag);
  });
});
