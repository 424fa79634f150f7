import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  hasFilters,
  readBrowseState,
  searchQueryOf,
  SORT_ORDER_LABELS,
  writeBrowseState,
} from './search-state';

describe('the search state in the address bar', () => {
  it('round-trips every filter, the sort order and the page', () => {
    const params = new URLSearchParams(
      'search=git&orderBy=update+date&payment=paid&tags=Languages&tags=Testing&products=IDEA&products=GOLAND&communityPrograms=STUDENTS&isFeaturedSearch=true&shouldHaveSource=true&kind=themes&family=intellij&page=3',
    );
    const state = readBrowseState(params);
    expect(state).toEqual({
      search: 'git',
      orderBy: 'update date',
      payment: 'paid',
      tags: ['Languages', 'Testing'],
      products: ['IDEA', 'GOLAND'],
      communityPrograms: ['STUDENTS'],
      isFeaturedSearch: true,
      shouldHaveSource: true,
      kind: 'themes',
      family: 'intellij',
      page: 3,
    });
    expect(readBrowseState(writeBrowseState(state))).toEqual(state);
  });

  it('falls back to defaults for unknown or hostile values and leaves defaults out of the address', () => {
    const state = readBrowseState(
      new URLSearchParams(
        'orderBy=popularity&payment=cheap&products=NOPE&communityPrograms=RETIREES&family=mars&page=-2&tags=%20' +
          '&isFeaturedSearch=1&shouldHaveSource=yes&kind=any',
      ),
    );
    expect(state).toEqual({
      search: '',
      orderBy: undefined,
      payment: 'all',
      tags: [],
      products: [],
      communityPrograms: [],
      isFeaturedSearch: false,
      shouldHaveSource: false,
      kind: undefined,
      family: undefined,
      page: 1,
    });
    expect(writeBrowseState(state).toString()).toBe('');
  });

  it('asks the API for the page the state names, 20 a page', () => {
    const query = searchQueryOf(
      readBrowseState(new URLSearchParams('search=%20kotlin%20&page=2&orderBy=rating')),
    );
    expect(query).toMatchObject({ search: 'kotlin', orderBy: 'rating', max: 20, offset: 20, payment: 'all' });
  });

  it('sends the staff-picks, source-code and type filters, and asks for one result set when told', () => {
    const state = readBrowseState(
      new URLSearchParams('isFeaturedSearch=true&shouldHaveSource=true&products=IDEA&page=3'),
    );
    expect(searchQueryOf(state)).toMatchObject({
      isFeaturedSearch: true,
      shouldHaveSource: true,
      products: ['IDEA'],
      max: 20,
      offset: 40,
    });
    expect(searchQueryOf(state)).not.toHaveProperty('kind');
    // The themes beside the plugins: their own set, from the first, as many as shown.
    expect(searchQueryOf(state, { kind: 'themes', max: 12, offset: 0 })).toMatchObject({
      kind: 'themes',
      isFeaturedSearch: true,
      max: 12,
      offset: 0,
    });
    expect(searchQueryOf(readBrowseState(new URLSearchParams('kind=plugins')))).toMatchObject({
      kind: 'plugins',
    });
    // Off is left out of the query and of the address.
    const off = readBrowseState(new URLSearchParams('isFeaturedSearch=false'));
    expect(searchQueryOf(off)).not.toHaveProperty('isFeaturedSearch');
    expect(writeBrowseState(off).toString()).toBe('');
  });

  it('labels all eight sort orders of the spec', () => {
    expect(Object.keys(SORT_ORDER_LABELS)).toHaveLength(8);
  });
});

describe('hasFilters', () => {
  it('is false for a plain search and true once anything else narrows the list', () => {
    const plain = readBrowseState(new URLSearchParams('search=git'));
    expect(hasFilters(plain)).toBe(false);
    expect(hasFilters(readBrowseState(new URLSearchParams('search=git&tags=Theme')))).toBe(true);
    expect(hasFilters({ ...plain, payment: 'free' })).toBe(true);
    expect(hasFilters({ ...plain, family: 'intellij' })).toBe(true);
    expect(hasFilters({ ...plain, isFeaturedSearch: true })).toBe(true);
    expect(hasFilters({ ...plain, shouldHaveSource: true })).toBe(true);
    expect(hasFilters({ ...plain, kind: 'themes' })).toBe(true);
  });
});

describe('activeFilterCount', () => {
  it('counts the family, the pricing and each tag, IDE and program, not the words or the order', () => {
    expect(activeFilterCount(readBrowseState(new URLSearchParams('search=git&orderBy=rating&page=2')))).toBe(
      0,
    );
    expect(
      activeFilterCount(
        readBrowseState(
          new URLSearchParams(
            'family=intellij&payment=paid&tags=Theme&tags=Git&products=IDEA&products=PYCHARM&communityPrograms=STUDENTS',
          ),
        ),
      ),
    ).toBe(7);
    expect(
      activeFilterCount(
        readBrowseState(new URLSearchParams('isFeaturedSearch=true&shouldHaveSource=true&kind=plugins')),
      ),
    ).toBe(3);
  });
});
