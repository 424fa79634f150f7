import type { Comment, Plugin } from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import { ReviewsTab } from './ReviewsTab';

const VENDOR = 5;
const VISITOR = 9;
let signedIn: number | null = VENDOR;
vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user:
      signedIn === null
        ? null
        : { id: signedIn, name: '', login: `user-${signedIn}`, email: null, banned: false, isAdmin: false },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const author = (id: number, name: string) => ({ id, login: `user-${id}`, name, link: `/author/${id}` });

function review(replies: Comment['replies']): Comment {
  return {
    id: 31,
    plugin: { id: 42, name: 'Rainbow Brackets', link: '/plugin/42-rainbow-brackets' },
    author: author(VISITOR, 'Vic Visitor'),
    rating: 4,
    comment: 'Nice, but the colours clash with my theme.',
    cdate: Date.UTC(2026, 9, 1, 12),
    updateDate: null,
    replies,
  };
}

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let replies: Comment['replies'];
let failWrites: { status: number; message: string } | undefined;

beforeEach(() => {
  signedIn = VENDOR;
  calls = [];
  failWrites = undefined;
  replies = [
    {
      id: 70,
      author: author(VENDOR, 'Dana Developer'),
      comment: 'Thanks! Try the theme-aware palette.',
      cdate: Date.UTC(2026, 9, 3, 12),
    },
    {
      id: 71,
      author: author(6, 'Other Developer'),
      comment: 'Fixed in 2.1.',
      cdate: Date.UTC(2026, 9, 4, 12),
    },
  ];
  vi.stubGlobal('confirm', () => true);
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, body });
    if (method !== 'GET' && failWrites) {
      return jsonResponse(failWrites.status, { type: 'error', message: failWrites.message });
    }
    if (method === 'GET' && url.pathname === '/api/comments') return jsonResponse(200, [review(replies)]);
    if (method === 'GET' && url.pathname.endsWith('/rating-granular')) return jsonResponse(200, {});
    const text = (body as { comment?: string } | undefined)?.comment ?? '';
    if (method === 'POST' && url.pathname === '/api/comments/31/replies') {
      const created = {
        id: 72,
        author: author(VENDOR, 'Dana Developer'),
        comment: text,
        cdate: Date.UTC(2026, 10, 2),
      };
      replies = [...replies, created];
      return jsonResponse(201, created);
    }
    const replyId = Number(/^\/api\/comments\/31\/replies\/(\d+)$/.exec(url.pathname)?.[1]);
    if (method === 'PUT' && replyId) {
      replies = replies.map((reply) => (reply.id === replyId ? { ...reply, comment: text } : reply));
      return jsonResponse(
        200,
        replies.find((reply) => reply.id === replyId),
      );
    }
    if (method === 'DELETE' && replyId) {
      replies = replies.filter((reply) => reply.id !== replyId);
      return jsonResponse(204, null);
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Only what the tab reads of the item. */
const plugin = { id: 42, rating: { meanRating: 4 } } as unknown as Plugin;

function renderTab(canReply: boolean) {
  return render(
    <ToastProvider>
      <MemoryRouter>
        <ReviewsTab plugin={plugin} onRatingChange={() => undefined} canReply={canReply} />
      </MemoryRouter>
    </ToastProvider>,
  );
}

const theReview = () => screen.findByRole('article', { name: 'Review by Vic Visitor' });

describe('replies to reviews', () => {
  it('shows each reply under its review with its author and date', async () => {
    signedIn = null;
    renderTab(false);
    const shown = await theReview();
    const reply = within(shown).getByRole('group', { name: 'Reply by Dana Developer' });
    expect(within(reply).getByRole('link', { name: 'Dana Developer' }).getAttribute('href')).toBe(
      `/author/${VENDOR}`,
    );
    expect(reply.textContent).toContain('replied on 03.10.2026');
    expect(reply.textContent).toContain('Thanks! Try the theme-aware palette.');
    // Visitors may not reply, nor change the vendor's replies.
    expect(within(shown).queryByRole('button', { name: 'Reply' })).toBeNull();
    expect(within(shown).queryByRole('button', { name: 'Edit reply' })).toBeNull();
  });

  it('lets the item’s people answer a review', async () => {
    renderTab(true);
    const shown = await theReview();
    fireEvent.click(within(shown).getByRole('button', { name: 'Reply' }));
    const field = within(shown).getByLabelText('Reply to Vic Visitor');
    fireEvent.click(within(shown).getByRole('button', { name: 'Post reply' }));
    expect(within(shown).getByText('Write a reply first.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.input(field, { target: { value: '  Glad you like it.  ' } });
    fireEvent.click(within(shown).getByRole('button', { name: 'Post reply' }));
    await screen.findByText('Your reply is posted');
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      path: '/api/comments/31/replies',
      body: { comment: 'Glad you like it.' },
    });
    await waitFor(() =>
      expect(within(shown).getAllByRole('group', { name: 'Reply by Dana Developer' })).toHaveLength(2),
    );
    expect(within(shown).queryByLabelText('Reply to Vic Visitor')).toBeNull();
  });

  it('lets the author of a reply change and delete it, and only theirs', async () => {
    renderTab(true);
    const shown = await theReview();
    const other = within(shown).getByRole('group', { name: 'Reply by Other Developer' });
    expect(within(other).queryByRole('button', { name: 'Edit reply' })).toBeNull();

    fireEvent.click(within(shown).getByRole('button', { name: 'Edit reply' }));
    const field = within(shown).getByLabelText('Edit your reply') as HTMLTextAreaElement;
    expect(field.value).toBe('Thanks! Try the theme-aware palette.');
    fireEvent.input(field, { target: { value: 'Thanks! Version 2.1 follows your theme.' } });
    fireEvent.click(within(shown).getByRole('button', { name: 'Save reply' }));
    await screen.findByText('Your reply is updated');
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/comments/31/replies/70',
      body: { comment: 'Thanks! Version 2.1 follows your theme.' },
    });
    await within(shown).findByText('Thanks! Version 2.1 follows your theme.');

    fireEvent.click(within(shown).getByRole('button', { name: 'Delete reply' }));
    await screen.findByText('Your reply is deleted');
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/comments/31/replies/70');
    await waitFor(() =>
      expect(within(shown).queryByRole('group', { name: 'Reply by Dana Developer' })).toBeNull(),
    );
  });

  it('shows the site’s error toast when the server refuses, keeping what was written', async () => {
    failWrites = { status: 403, message: 'Only the plugin’s developers may reply.' };
    renderTab(true);
    const shown = await theReview();
    fireEvent.click(within(shown).getByRole('button', { name: 'Reply' }));
    fireEvent.input(within(shown).getByLabelText('Reply to Vic Visitor'), { target: { value: 'Hello' } });
    fireEvent.click(within(shown).getByRole('button', { name: 'Post reply' }));
    const toast = await screen.findByText('Only the plugin’s developers may reply.');
    expect(toast).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect((within(shown).getByLabelText('Reply to Vic Visitor') as HTMLTextAreaElement).value).toBe('Hello');
  });
});
