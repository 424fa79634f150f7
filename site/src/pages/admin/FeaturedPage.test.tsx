import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import FeaturedPage from './FeaturedPage';
import { pluginSummaryFixture } from '../../test-support/plugin-summary';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Admin', login: 'admin', email: null, banned: false, isAdmin: true },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const summary = (id: number, name: string) => pluginSummaryFixture(id, { name, link: `/plugin/${id}-x` });

type Call = { method: string; path: string; query: URLSearchParams; body: unknown };
let calls: Call[];
/** The fake server: featured lists by family, the suggestions, and what a PUT answers. */
let lists: Record<string, ReturnType<typeof summary>[]>;
let putAnswer: { status: number; body: unknown } | undefined;
/** Staff picks by IDE product key. */
let picks: Record<string, ReturnType<typeof summary>[]>;

beforeEach(() => {
  calls = [];
  lists = { intellij: [summary(1, 'Git Toolbox'), summary(2, 'Rainbow Brackets')], teamcity: [] };
  putAnswer = undefined;
  picks = { IDEA: [summary(2, 'Rainbow Brackets')] };
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, query: url.searchParams, body });
    const family = /^\/api\/(?:admin\/)?featured\/(\w+)$/.exec(url.pathname)?.[1];
    if (method === 'GET' && family) return jsonResponse(200, lists[family] ?? []);
    if (method === 'PUT' && family) {
      if (putAnswer) return jsonResponse(putAnswer.status, putAnswer.body);
      const ids = (body as { pluginIds: number[] }).pluginIds;
      const known = [...(lists[family] ?? []), summary(3, 'Night Owl')];
      lists[family] = ids.map((id) => known.find((item) => item.id === id)!);
      return jsonResponse(200, lists[family]);
    }
    if (method === 'GET' && url.pathname === '/api/featured-plugins/product') {
      return jsonResponse(200, picks[url.searchParams.get('product') ?? ''] ?? []);
    }
    const product = /^\/api\/admin\/featured-plugins\/(\w+)$/.exec(url.pathname)?.[1];
    if (method === 'PUT' && product) {
      if (putAnswer) return jsonResponse(putAnswer.status, putAnswer.body);
      const ids = (body as { pluginIds: number[] }).pluginIds;
      const known = [summary(1, 'Git Toolbox'), summary(2, 'Rainbow Brackets'), summary(3, 'Night Owl')];
      picks[product] = ids.map((id) => known.find((item) => item.id === id)!);
      return jsonResponse(200, picks[product]);
    }
    if (url.pathname === '/api/searchSuggest') {
      return jsonResponse(200, {
        plugins: [
          { id: 1, name: 'Git Toolbox', xmlId: 'com.example.1', link: '/plugin/1-x' },
          { id: 3, name: 'Night Owl', xmlId: 'com.example.3', link: '/plugin/3-x' },
        ],
        tags: [],
      });
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  return render(
    <ToastProvider>
      <MemoryRouter initialEntries={['/admin/featured']}>
        <FeaturedPage />
      </MemoryRouter>
    </ToastProvider>,
  );
}

const shownNames = () =>
  within(screen.getByRole('region', { name: /^Featured items of / }))
    .queryAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'))
    .filter(Boolean);

describe('the featured items screen', () => {
  it('lists a family’s items, adds one by type-ahead, reorders, removes and saves the list in order', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: 'Featured items' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Featured' }).getAttribute('href')).toBe('/admin/featured');
    await screen.findByRole('listitem', { name: 'Git Toolbox' });
    expect(shownNames()).toEqual(['Git Toolbox', 'Rainbow Brackets']);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.input(screen.getByLabelText('Add an item'), { target: { value: 'ni' } });
    // Items already in the list are not offered again.
    await screen.findByRole('button', { name: 'Add Night Owl' });
    expect(screen.queryByRole('button', { name: 'Add Git Toolbox' })).toBeNull();
    const suggest = calls.find((call) => call.path === '/api/searchSuggest');
    expect(suggest?.query.get('term')).toBe('ni');
    expect(suggest?.query.get('family')).toBe('intellij');
    fireEvent.click(screen.getByRole('button', { name: 'Add Night Owl' }));
    expect(shownNames()).toEqual(['Git Toolbox', 'Rainbow Brackets', 'Night Owl']);

    fireEvent.click(screen.getByRole('button', { name: 'Move Night Owl up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move Night Owl up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Rainbow Brackets' }));
    expect(shownNames()).toEqual(['Night Owl', 'Git Toolbox']);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    await screen.findByText('Featured items of IntelliJ-based IDEs saved');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put).toMatchObject({ path: '/api/admin/featured/intellij', body: { pluginIds: [3, 1] } });
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).toBeNull());
    expect(shownNames()).toEqual(['Night Owl', 'Git Toolbox']);
  });

  it('switches family, and says when a family has none', async () => {
    renderPage();
    await screen.findByRole('listitem', { name: 'Git Toolbox' });
    fireEvent.change(screen.getByLabelText('Product family'), { target: { value: 'teamcity' } });
    await screen.findByText(/No featured items/);
    expect(shownNames()).toEqual([]);
    expect(calls.some((call) => call.path === '/api/featured/teamcity')).toBe(true);
  });

  it('keeps the edited list and shows the server’s message when saving fails', async () => {
    putAnswer = {
      status: 400,
      body: { type: 'error', message: 'Item 2 is of the teamcity family, not intellij.' },
    };
    renderPage();
    await screen.findByRole('listitem', { name: 'Git Toolbox' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Git Toolbox' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Item 2 is of the teamcity family, not intellij.');
    expect(shownNames()).toEqual(['Rainbow Brackets']);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });
});

describe('the staff picks per IDE', () => {
  const picksRegion = (name: string) => screen.getByRole('region', { name: `Staff picks of ${name}` });
  const pickNames = (name: string) =>
    within(picksRegion(name))
      .queryAllByRole('listitem')
      .map((item) => item.getAttribute('aria-label'))
      .filter(Boolean);

  it('shows an IDE’s picks, adds, reorders and removes, and saves them for that IDE in order', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: 'Staff picks, per IDE' })).toBeTruthy();
    const region = await screen.findByRole('region', { name: 'Staff picks of IntelliJ IDEA Ultimate' });
    await within(region).findByRole('listitem', { name: 'Rainbow Brackets' });

    fireEvent.input(within(region).getByLabelText('Add a plugin to the picks'), { target: { value: 'gi' } });
    fireEvent.click(await within(region).findByRole('button', { name: 'Add Git Toolbox' }));
    fireEvent.input(within(region).getByLabelText('Add a plugin to the picks'), { target: { value: 'ni' } });
    fireEvent.click(await within(region).findByRole('button', { name: 'Add Night Owl' }));
    expect(pickNames('IntelliJ IDEA Ultimate')).toEqual(['Rainbow Brackets', 'Git Toolbox', 'Night Owl']);
    fireEvent.click(within(region).getByRole('button', { name: 'Move Night Owl up in the picks' }));
    fireEvent.click(within(region).getByRole('button', { name: 'Remove Rainbow Brackets from the picks' }));
    expect(pickNames('IntelliJ IDEA Ultimate')).toEqual(['Night Owl', 'Git Toolbox']);
    // The family list above is untouched.
    expect(shownNames()).toEqual(['Git Toolbox', 'Rainbow Brackets']);

    fireEvent.click(within(region).getByRole('button', { name: 'Save staff picks' }));
    await screen.findByText('Staff picks of IntelliJ IDEA Ultimate saved');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put).toMatchObject({ path: '/api/admin/featured-plugins/IDEA', body: { pluginIds: [3, 1] } });
    expect(calls.some((call) => call.path === '/api/admin/featured/intellij')).toBe(false);
    expect(picks['IDEA']?.map((item) => item.id)).toEqual([3, 1]);
  });

  it('switches IDE, says when one has none, and keeps the edits and the server’s message when saving fails', async () => {
    renderPage();
    const region = await screen.findByRole('region', { name: 'Staff picks of IntelliJ IDEA Ultimate' });
    await within(region).findByRole('listitem', { name: 'Rainbow Brackets' });
    fireEvent.change(screen.getByLabelText('IDE'), { target: { value: 'PYCHARM' } });
    await screen.findByText('No staff picks: PyCharm shows no featured plugins.');
    expect(
      calls.some(
        (call) => call.path === '/api/featured-plugins/product' && call.query.get('product') === 'PYCHARM',
      ),
    ).toBe(true);
    // Suggestions are items of the IDE's family.
    fireEvent.input(screen.getByLabelText('Add a plugin to the picks'), { target: { value: 'gi' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Git Toolbox' }));
    const suggest = calls.filter((call) => call.path === '/api/searchSuggest').at(-1);
    expect(suggest?.query.get('family')).toBe('intellij');

    putAnswer = {
      status: 400,
      body: {
        type: 'error',
        message: 'Git Toolbox (1) does not run on PyCharm: the plugin names other compatible products.',
      },
    };
    fireEvent.click(screen.getByRole('button', { name: 'Save staff picks' }));
    await screen.findByText(
      'Git Toolbox (1) does not run on PyCharm: the plugin names other compatible products.',
    );
    expect(pickNames('PyCharm')).toEqual(['Git Toolbox']);
    expect(within(picksRegion('PyCharm')).getByText('Unsaved changes')).toBeTruthy();
  });
});
