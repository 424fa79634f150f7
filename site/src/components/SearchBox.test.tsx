import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../test-support/fetch-stub';
import { SearchBox } from './SearchBox';

beforeEach(() => {
  const suggestion = (id: number, name: string, family: string, isTheme = false) => ({
    id,
    name,
    xmlId: `item.${id}`,
    link: `/plugin/${id}-x`,
    family,
    isTheme,
  });
  stubFetch(({ url }) =>
    url.pathname === '/api/searchSuggest'
      ? jsonResponse(200, {
          plugins: [
            suggestion(1, 'Kotlin Fest', 'intellij'),
            suggestion(2, 'Kotlin Koans', 'edu'),
            suggestion(3, 'Kotlin Board', 'hub'),
            suggestion(4, 'Kotlin Dark', 'intellij', true),
          ],
          tags: [{ id: 1, name: 'Kotlin', link: '/search?tags=Kotlin' }],
        })
      : undefined,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the header search box', () => {
  it("labels each suggested item with its family's noun, a theme as a theme, and tags as tags", async () => {
    render(
      <MemoryRouter>
        <SearchBox />
      </MemoryRouter>,
    );
    fireEvent.input(screen.getByRole('combobox'), { target: { value: 'kot' } });
    const list = await screen.findByRole('listbox', { name: 'Suggestions' });
    // Each option shows the suggestion's name, then what it is.
    const labelled = within(list)
      .getAllByRole('option')
      .map((option) => Array.from(option.children, (part) => part.textContent));
    expect(labelled).toEqual([
      ['Kotlin Fest', 'Plugin'],
      ['Kotlin Koans', 'Course'],
      ['Kotlin Board', 'Dashboard widget'],
      ['Kotlin Dark', 'Theme'],
      ['Kotlin', 'Tag'],
    ]);
  });
});
