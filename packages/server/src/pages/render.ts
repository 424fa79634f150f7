import { headingAnchors, tableOfContents, type TocEntry } from '@marketplace/core';
import { renderMarkdown } from '../publishing/sanitize';

export interface RenderedPage {
  /** Sanitised HTML, every heading with its anchor as id. */
  content: string;
  /** Empty unless asked for. */
  toc: TocEntry[];
}

// sanitize-html writes headings as `<hN>` or `<hN id="...">` (id is the only attribute it keeps on them).
const HEADING = /<h([1-6])(?: id="[^"]*")?>([\s\S]*?)<\/h\1>/g;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text a heading reads as: tags dropped, entities decoded (it is shown as text, never as HTML). */
function headingText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A page's Markdown as visitors see it: rendered and sanitised by the same renderer as the documentation
 * tabs (raw HTML in the Markdown included, so scripts, styles, frames, forms and handlers are gone), every
 * heading given a unique anchor (replacing any id the author wrote), and the table of contents made from
 * the headings when `generateToc` is set.
 */
export function renderPage(markdown: string, generateToc: boolean): RenderedPage {
  const html = renderMarkdown(markdown);
  const headings = [...html.matchAll(HEADING)].map((match) => ({
    level: Number(match[1]),
    text: headingText(match[2] ?? ''),
  }));
  const anchors = headingAnchors(headings);
  let index = 0;
  const content = html.replace(HEADING, (_whole, level: string, inner: string) => {
    const anchor = anchors[index]?.anchor ?? `section-${index + 1}`;
    index += 1;
    return `<h${level} id="${anchor}">${inner}</h${level}>`;
  });
  return { content, toc: generateToc ? tableOfContents(headings) : [] };
}

/** The table of contents of stored content (rendered by renderPage), read back from its headings. */
export function tocOfContent(content: string): TocEntry[] {
  const entries: TocEntry[] = [];
  for (const match of content.matchAll(/<h([1-6]) id="([^"]*)">([\s\S]*?)<\/h\1>/g)) {
    entries.push({ level: Number(match[1]), anchor: match[2] ?? '', text: headingText(match[3] ?? '') });
  }
  return entries.filter((entry) => entry.level <= 3 && entry.text !== '');
}
