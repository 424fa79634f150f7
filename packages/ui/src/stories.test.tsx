/// <reference types="vite/client" />
import { cleanup } from '@testing-library/react';
import axe from 'axe-core';
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uiPreview } from './storybook/preview';

/**
 * Every story is also a test: each one renders without errors, its play function passes and axe finds no
 * accessibility violation. Stories that read the marketplace API get the answers Storybook serves from
 * stories/public; any other address is unreachable, as it would be offline.
 */
setProjectAnnotations(uiPreview);

type StoryModule = Parameters<typeof composeStories>[0];
const modules = import.meta.glob<StoryModule>('./**/*.stories.tsx', { eager: true });
const staticFolder = '../../../stories/public';
const staticFiles = import.meta.glob<string>('../../../stories/public/**/*', {
  query: '?raw',
  import: 'default',
  eager: true,
});

async function storybookFetch(input: string | URL | Request): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  const body =
    url.origin === window.location.origin ? staticFiles[`${staticFolder}${url.pathname}`] : undefined;
  if (body === undefined) throw new TypeError('Failed to fetch');
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
}

beforeAll(() => vi.stubGlobal('fetch', storybookFetch));
afterAll(() => vi.unstubAllGlobals());

describe.each(Object.entries(modules))('%s', (_file, module) => {
  const stories = Object.entries(composeStories(module)) as [string, { run: () => Promise<void> }][];
  it('has stories', () => expect(stories.length).toBeGreaterThan(0));
  it.each(stories)('%s renders and plays', async (_name, Story) => {
    const errors: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
    try {
      await Story.run();
      expect(errors).toEqual([]);
      // Colour contrast needs real layout and is checked in Chromium; 'region' is about whole pages, and a
      // component is a part of one. The other rules hold here too.
      const { violations } = await axe.run(document.body, {
        rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
      });
      expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    } finally {
      consoleError.mockRestore();
      cleanup();
    }
  });
});
