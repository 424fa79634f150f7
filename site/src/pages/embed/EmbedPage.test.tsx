import { isWidgetMessageOfType, MESSAGE_NAMESPACE } from '@marketplace/protocol';
import { cleanup, render, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import EmbedPage from './EmbedPage';

const HOST_ORIGIN = 'https://host.example';
/** What a failing server puts in its body: none of it may reach the host when the status is 5xx. */
const SERVER_DETAIL = 'relation "plugins" does not exist at db/client.ts:42';

/** The window that frames the embed page: it records what is posted to it and to which origin. */
const parent = { postMessage: vi.fn<(message: unknown, targetOrigin: string) => void>() };
let itemAnswer: { status: number; body: unknown };

beforeEach(() => {
  // The page says in the console why the item did not load; the test reads the message instead.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  parent.postMessage.mockReset();
  Object.defineProperty(window, 'parent', { value: parent, configurable: true });
  Object.defineProperty(document, 'referrer', { value: `${HOST_ORIGIN}/page.html`, configurable: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(itemAnswer.body), {
          status: itemAnswer.status,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Object.defineProperty(window, 'parent', { value: window, configurable: true });
});

function renderEmbed(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/embeddable/:type/:pluginId" element={<EmbedPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The error message posted to the parent window, once it is. */
async function postedError() {
  return waitFor(() => {
    const call = parent.postMessage.mock.calls.find(([message]) =>
      isWidgetMessageOfType(message, 'embed:error'),
    );
    if (!call) throw new Error('no embed:error posted yet');
    return call;
  });
}

describe('an embed page whose item does not load', () => {
  it.each(['card', 'install', 'ai', 'open-course', 'course-lti'])(
    'renders nothing for an unknown id (%s) and posts embed:error to the parent page',
    async (type) => {
      itemAnswer = { status: 404, body: { type: 'NOT_FOUND', message: 'Plugin 999999 does not exist.' } };
      const { container } = renderEmbed(`/embeddable/${type}/999999`);
      const [message, origin] = await postedError();
      expect(origin).toBe(HOST_ORIGIN);
      expect(message).toEqual({
        namespace: MESSAGE_NAMESPACE,
        type: 'embed:error',
        pluginId: '999999',
        status: 404,
        message: 'Plugin 999999 does not exist.',
      });
      expect(container.querySelector('.embed-content')?.childElementCount).toBe(0);
      expect(
        parent.postMessage.mock.calls.some(([posted]) => isWidgetMessageOfType(posted, 'embed:item-data')),
      ).toBe(false);
    },
  );

  it('tells the parent only "Internal Error" when the server fails', async () => {
    itemAnswer = { status: 503, body: { message: SERVER_DETAIL } };
    const { container } = renderEmbed('/embeddable/card/42');
    const [message] = await postedError();
    expect(message).toMatchObject({
      type: 'embed:error',
      pluginId: '42',
      status: 503,
      message: 'Internal Error',
    });
    expect(JSON.stringify(parent.postMessage.mock.calls)).not.toContain(SERVER_DETAIL);
    expect(container.querySelector('.embed-content')?.childElementCount).toBe(0);
  });

  it('posts embed:error without asking the server when the address names no item', async () => {
    itemAnswer = { status: 200, body: {} };
    renderEmbed('/embeddable/card/not-an-id');
    const [message] = await postedError();
    expect(message).toMatchObject({ type: 'embed:error', pluginId: 'not-an-id', status: 404 });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('posts nothing when the page is not framed', async () => {
    Object.defineProperty(window, 'parent', { value: window, configurable: true });
    itemAnswer = { status: 404, body: { message: 'Plugin 999999 does not exist.' } };
    renderEmbed('/embeddable/card/999999');
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(parent.postMessage).not.toHaveBeenCalled();
  });
});
