import { describe, expect, it } from 'vitest';
import {
  arrangementProblem,
  buildPageTree,
  CUSTOM_PAGE_LIMITS,
  flattenPageTree,
  headingAnchors,
  pageUrlOf,
  pageUrlProblem,
  parentProblem,
  tableOfContents,
  webhelpPath,
} from './index';

describe('page URLs', () => {
  it('accepts lower-case words joined by single hyphens', () => {
    expect(pageUrlProblem('getting-started')).toBeUndefined();
    expect(pageUrlProblem('v2')).toBeUndefined();
  });

  it('refuses empty, long, upper-case, slashes, dots, doubled or outer hyphens, and reserved words', () => {
    expect(pageUrlProblem('')).toMatch(/empty/);
    expect(pageUrlProblem('a'.repeat(CUSTOM_PAGE_LIMITS.maxUrlChars + 1))).toMatch(/longer than 64/);
    for (const bad of ['Guide', 'a/b', '../x', 'a.html', 'a--b', '-a', 'a-', 'a b', 'é']) {
      expect(pageUrlProblem(bad), bad).toMatch(/lower-case letters, digits and single hyphens/);
    }
    expect(pageUrlProblem('published')).toMatch(/reserved/);
  });

  it('makes a URL from a name', () => {
    expect(pageUrlOf('Getting Started — Ünïcode!')).toBe('getting-started-unicode');
    expect(pageUrlOf('Published')).toBe('published-page');
    expect(pageUrlProblem(pageUrlOf('  Ça va? Très bien  '))).toBeUndefined();
  });

  it('puts a webhelp under its own prefix', () => {
    expect(webhelpPath(7, 'docs')).toBe('/webhelp/7/docs/');
  });
});

describe('the page tree', () => {
  const pages = [
    { id: 1, parentId: null, position: 1 },
    { id: 2, parentId: null, position: 0 },
    { id: 3, parentId: 1, position: 1 },
    { id: 4, parentId: 1, position: 0 },
    { id: 5, parentId: 4, position: 0 },
    { id: 6, parentId: 99, position: 2 },
  ];

  it('nests children under parents, siblings by position; orphans at the top', () => {
    const order = flattenPageTree(buildPageTree(pages)).map((page) => [page.id, page.depth]);
    expect(order).toEqual([
      [2, 1],
      [1, 1],
      [4, 2],
      [5, 3],
      [3, 2],
      [6, 1],
    ]);
  });

  it('does not lose pages whose stored parents form a loop', () => {
    const looped = [
      { id: 1, parentId: 2, position: 0 },
      { id: 2, parentId: 1, position: 1 },
    ];
    expect(
      flattenPageTree(buildPageTree(looped))
        .map((page) => page.id)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('refuses a parent that is the page itself, a descendant, or not of the item', () => {
    expect(parentProblem(pages, 1, null)).toBeUndefined();
    expect(parentProblem(pages, 3, 2)).toBeUndefined();
    expect(parentProblem(pages, undefined, 5)).toBeUndefined();
    expect(parentProblem(pages, 1, 1)).toMatch(/own parent/);
    expect(parentProblem(pages, 1, 5)).toMatch(/own sub-pages/);
    expect(parentProblem(pages, 1, 4)).toMatch(/own sub-pages/);
    expect(parentProblem(pages, 2, 42)).toMatch(/not a page of this item/);
  });

  it('refuses nesting deeper than the limit', () => {
    const chain = Array.from({ length: CUSTOM_PAGE_LIMITS.maxDepth }, (_, index) => ({
      id: index + 1,
      parentId: index === 0 ? null : index,
      position: 0,
    }));
    expect(parentProblem(chain, undefined, CUSTOM_PAGE_LIMITS.maxDepth - 1)).toBeUndefined();
    expect(parentProblem(chain, undefined, CUSTOM_PAGE_LIMITS.maxDepth)).toMatch(/at most 5 levels/);
    const extra = [
      ...chain,
      { id: 100, parentId: null, position: 1 },
      { id: 101, parentId: 100, position: 0 },
    ];
    // 100 has a child, so under page 4 it would put 101 at depth 6.
    expect(parentProblem(extra, 100, 4)).toMatch(/at most 5 levels/);
  });

  it('checks a whole arrangement: every page once, no loop', () => {
    const ids = [1, 2, 3];
    expect(
      arrangementProblem(ids, [
        { id: 2, parentId: null },
        { id: 1, parentId: 2 },
        { id: 3, parentId: 1 },
      ]),
    ).toBeUndefined();
    expect(arrangementProblem(ids, [{ id: 1, parentId: null }])).toMatch(/every page/);
    expect(
      arrangementProblem(ids, [
        { id: 1, parentId: null },
        { id: 1, parentId: null },
        { id: 2, parentId: null },
      ]),
    ).toMatch(/twice/);
    expect(
      arrangementProblem(ids, [
        { id: 1, parentId: 3 },
        { id: 2, parentId: null },
        { id: 3, parentId: 1 },
      ]),
    ).toMatch(/own sub-pages|loop/);
    expect(
      arrangementProblem(ids, [
        { id: 1, parentId: null },
        { id: 2, parentId: null },
        { id: 4, parentId: null },
      ]),
    ).toMatch(/not a page of this item/);
  });
});

describe('the table of contents', () => {
  it('gives every heading a unique anchor, prefixed so it cannot take the site’s ids', () => {
    const anchors = headingAnchors([
      { level: 2, text: 'Usage' },
      { level: 2, text: 'Usage' },
      { level: 3, text: 'Usage 2' },
      { level: 2, text: '!!!' },
    ]).map((entry) => entry.anchor);
    expect(anchors).toEqual(['section-usage', 'section-usage-2', 'section-usage-2-2', 'section-section']);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('lists levels 1 to 3 only', () => {
    const toc = tableOfContents([
      { level: 1, text: 'Title' },
      { level: 2, text: 'Install' },
      { level: 4, text: 'Deep' },
      { level: 3, text: 'From disk' },
    ]);
    expect(toc.map((entry) => [entry.level, entry.text, entry.anchor])).toEqual([
      [1, 'Title', 'section-title'],
      [2, 'Install', 'section-install'],
      [3, 'From disk', 'section-from-disk'],
    ]);
  });
});
