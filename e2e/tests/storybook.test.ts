import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { repositoryRoot } from '../support/paths';

/**
 * The Storybook catalogue as it ships: `build-storybook` builds every story (a story that no longer compiles
 * or indexes fails here), and each story of the five custom elements runs in Chromium, where its play function
 * must pass and nothing may be logged as an error.
 */

interface StoryIndex {
  entries: Record<string, { id: string; type: string; title: string }>;
}

/** What Storybook's preview said about a story: set by an init script listening on its channel. */
interface StoryStatus {
  state: 'pending' | 'rendered' | 'failed';
  reason?: string;
}

describe('the Storybook catalogue', () => {
  let outputDir: string;
  let server: RunningHttpServer;
  let browser: Browser;
  let index: StoryIndex;

  beforeAll(async () => {
    outputDir = await mkdtemp(join(tmpdir(), 'storybook-'));
    // The stories package's own build-storybook, by Storybook's binary (no package manager needed on PATH).
    const storybook = join(repositoryRoot, 'stories/node_modules/storybook/dist/bin/dispatcher.js');
    const built = spawnSync(
      process.execPath,
      [storybook, 'build', '--output-dir', outputDir, '--quiet', '--disable-telemetry'],
      { cwd: join(repositoryRoot, 'stories'), encoding: 'utf8' },
    );
    if (built.status !== 0) throw new Error(`build-storybook failed:\n${built.stdout}\n${built.stderr}`);
    server = await startTestHttpServer({ mounts: [{ prefix: '/', dir: outputDir }] });
    index = (await (await fetch(`http://127.0.0.1:${server.port}/index.json`)).json()) as StoryIndex;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  const elementStories = () =>
    Object.values(index.entries).filter(
      (entry) => entry.type === 'story' && entry.title.startsWith('Elements/'),
    );

  it('has stories of the components and of each of the five elements', () => {
    const titles = new Set(elementStories().map((entry) => entry.title));
    expect([...titles].sort()).toEqual([
      'Elements/mp-ai-button',
      'Elements/mp-course-lti',
      'Elements/mp-install-button',
      'Elements/mp-open-course',
      'Elements/mp-plugin-card',
    ]);
    expect(Object.values(index.entries).some((entry) => entry.title.startsWith('Components/'))).toBe(true);
  });

  it('renders every element story in Chromium, the element itself, with its play function passing', async () => {
    const { page, errors } = await openPage(browser);
    page.on('console', (message) => {
      // The browser's own request for a favicon, which the catalogue does not have, is not a story's error.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        errors.push(`${message.text()} (${message.location().url})`);
    });
    await page.addInitScript(() => {
      const status: StoryStatus = { state: 'pending' };
      (window as unknown as { storyStatus: StoryStatus }).storyStatus = status;
      const attach = () => {
        const channel = (
          window as unknown as {
            __STORYBOOK_ADDONS_CHANNEL__?: {
              on(event: string, listener: (...args: unknown[]) => void): void;
            };
          }
        ).__STORYBOOK_ADDONS_CHANNEL__;
        if (!channel) return void setTimeout(attach, 10);
        const fail = (reason: unknown) =>
          Object.assign(status, { state: 'failed' as const, reason: String(reason) });
        channel.on('storyRendered', () => {
          if (status.state === 'pending') status.state = 'rendered';
        });
        channel.on('storyThrewException', (error) => fail((error as Error)?.message ?? error));
        channel.on('playFunctionThrewException', (error) => fail((error as Error)?.message ?? error));
        channel.on('storyErrored', (error) => fail((error as { title?: string })?.title ?? error));
      };
      attach();
    });
    const outcomes: Record<string, string> = {};
    for (const story of elementStories()) {
      await page.goto(`http://127.0.0.1:${server.port}/iframe.html?id=${story.id}&viewMode=story`);
      await expect
        .poll(
          () => page.evaluate(() => (window as unknown as { storyStatus: StoryStatus }).storyStatus.state),
          {
            timeout: 20_000,
          },
        )
        .not.toBe('pending');
      const status = await page.evaluate(
        () => (window as unknown as { storyStatus: StoryStatus }).storyStatus,
      );
      // The element itself is on the canvas, drawn in its shadow root once its item has arrived (a story without
      // a play function is rendered before that).
      const drawn = () =>
        page.evaluate(() => {
          const element = [...document.querySelectorAll('#storybook-root *')].find((node) =>
            node.tagName.startsWith('MP-'),
          );
          return `${element?.tagName.toLowerCase()}: ${element?.shadowRoot?.textContent?.trim() ? 'drawn' : 'empty'}`;
        });
      if (status.state !== 'failed') await expect.poll(drawn, { timeout: 10_000 }).toMatch(/: drawn$/);
      outcomes[story.id] = status.state === 'failed' ? `failed: ${status.reason}` : await drawn();
    }
    expect(outcomes).toEqual(
      Object.fromEntries(
        elementStories().map((story) => [story.id, `${story.title.slice('Elements/'.length)}: drawn`]),
      ),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
