import { CUSTOM_PAGE_LIMITS } from './limits';

/** What the tree needs of a page. */
export interface PageTreeItem {
  id: number;
  parentId: number | null;
  position: number;
}

export type PageTreeNode<T extends PageTreeItem> = T & { children: PageTreeNode<T>[] };

/**
 * The pages as a tree, siblings by position (then id). A page whose parent is not among `pages` (an
 * unpublished parent, for visitors) is shown at the top level rather than lost.
 */
export function buildPageTree<T extends PageTreeItem>(pages: readonly T[]): PageTreeNode<T>[] {
  const nodes = new Map<number, PageTreeNode<T>>();
  for (const page of pages) nodes.set(page.id, { ...page, children: [] });
  const roots: PageTreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent && !isAncestor(nodes, node.id, parent.id)) parent.children.push(node);
    else roots.push(node);
  }
  const order = (a: PageTreeNode<T>, b: PageTreeNode<T>) => a.position - b.position || a.id - b.id;
  const sortAll = (list: PageTreeNode<T>[]) => {
    list.sort(order);
    for (const node of list) sortAll(node.children);
  };
  sortAll(roots);
  return roots;
}

/** Whether `ancestorId` is `id` or above it (following parents), guarding against stored loops. */
function isAncestor<T extends PageTreeItem>(
  nodes: ReadonlyMap<number, PageTreeNode<T>>,
  ancestorId: number,
  id: number,
): boolean {
  const seen = new Set<number>();
  let current: number | null = id;
  while (current !== null && !seen.has(current)) {
    if (current === ancestorId) return true;
    seen.add(current);
    current = nodes.get(current)?.parentId ?? null;
  }
  return false;
}

/** The pages in reading order: each page, then its children, depth first. */
export function flattenPageTree<T extends PageTreeItem>(
  tree: readonly PageTreeNode<T>[],
  depth = 1,
): (PageTreeNode<T> & { depth: number })[] {
  return tree.flatMap((node) => [{ ...node, depth }, ...flattenPageTree(node.children, depth + 1)]);
}

/**
 * Why `pageId` cannot be put under `parentId` among the item's `pages`, or undefined when it can: the parent
 * must be another page of the same item, not the page itself nor one of its descendants (a loop), and the
 * result may not nest deeper than CUSTOM_PAGE_LIMITS.maxDepth. `pageId` undefined: a page being created.
 */
export function parentProblem(
  pages: readonly Pick<PageTreeItem, 'id' | 'parentId'>[],
  pageId: number | undefined,
  parentId: number | null,
): string | undefined {
  if (parentId === null) return undefined;
  const byId = new Map(pages.map((page) => [page.id, page]));
  if (!byId.has(parentId)) return `Page ${parentId} is not a page of this item, so it cannot be the parent.`;
  if (parentId === pageId) return 'A page cannot be its own parent.';
  // Walk up from the new parent: meeting the page itself means the page would be its own ancestor.
  let depth = 1;
  const seen = new Set<number>();
  for (
    let current: number | null = parentId;
    current !== null;
    current = byId.get(current)?.parentId ?? null
  ) {
    if (current === pageId) return 'A page cannot be put under one of its own sub-pages.';
    if (seen.has(current)) return 'The pages of this item form a loop.';
    seen.add(current);
    depth += 1;
  }
  const below = pageId === undefined ? 0 : subtreeHeight(pages, pageId) - 1;
  if (depth + below > CUSTOM_PAGE_LIMITS.maxDepth) {
    return `Pages nest at most ${CUSTOM_PAGE_LIMITS.maxDepth} levels deep.`;
  }
  return undefined;
}

/** 1 for a page without children, 2 with children but no grandchildren... */
function subtreeHeight(pages: readonly Pick<PageTreeItem, 'id' | 'parentId'>[], pageId: number): number {
  let height = 1;
  let level = [pageId];
  const seen = new Set(level);
  while (level.length > 0) {
    const next = pages
      .filter((page) => page.parentId !== null && level.includes(page.parentId) && !seen.has(page.id))
      .map((page) => page.id);
    for (const id of next) seen.add(id);
    if (next.length === 0) break;
    height += 1;
    level = next;
  }
  return height;
}

/**
 * Checks a whole new arrangement (every page of the item exactly once, with its parent, in reading order):
 * answers why it cannot be, or undefined. Parents must be pages of the list, with no loop and no deeper
 * nesting than allowed.
 */
export function arrangementProblem(
  existingIds: readonly number[],
  arrangement: readonly { id: number; parentId: number | null }[],
): string | undefined {
  const ids = arrangement.map((page) => page.id);
  if (new Set(ids).size !== ids.length) return 'A page is listed twice.';
  const known = new Set(existingIds);
  const stranger = ids.find((id) => !known.has(id));
  if (stranger !== undefined) return `Page ${stranger} is not a page of this item.`;
  if (ids.length !== known.size) return 'List every page of the item, each once.';
  for (const page of arrangement) {
    const problem = parentProblem(arrangement, page.id, page.parentId);
    if (problem) return problem;
  }
  return undefined;
}
