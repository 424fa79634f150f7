/** A heading of a page, as its text reads. */
export interface PageHeading {
  /** 1 to 6, as h1 to h6. */
  level: number;
  text: string;
}

/** An entry of a page's table of contents: the heading and the anchor (element id) that leads to it. */
export interface TocEntry extends PageHeading {
  anchor: string;
}

/** The levels a table of contents lists: h1 is the page's own title more often than a section. */
export const TOC_LEVELS = { min: 1, max: 3 } as const;

/** `Getting Started: 2.0!` -> `getting-started-2-0`. */
export function headingSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'section' : slug;
}

/**
 * The anchors of all headings of a page, in order, each unique in the page (`usage`, `usage-2`...) and
 * prefixed so no heading can take an id the site itself uses. Every heading gets one, listed or not.
 */
export function headingAnchors(headings: readonly PageHeading[]): TocEntry[] {
  const used = new Set<string>();
  return headings.map((heading) => {
    const base = `section-${headingSlug(heading.text)}`;
    let anchor = base;
    for (let count = 2; used.has(anchor); count += 1) anchor = `${base}-${count}`;
    used.add(anchor);
    return { level: heading.level, text: heading.text.trim(), anchor };
  });
}

/** The table of contents: the headings of levels TOC_LEVELS with their anchors, empty headings left out. */
export function tableOfContents(headings: readonly PageHeading[]): TocEntry[] {
  return headingAnchors(headings).filter(
    (entry) => entry.level >= TOC_LEVELS.min && entry.level <= TOC_LEVELS.max && entry.text !== '',
  );
}
