import type { TocEntry } from '@marketplace/core';

/**
 * A custom page's headings as links (the item's tab and the vendor's editor show it): a module of its own,
 * so the item page's tab stays a chunk of its own that the server can name to preload.
 */
export function TableOfContents({ toc }: { toc: readonly TocEntry[] }) {
  if (toc.length === 0) return null;
  const top = Math.min(...toc.map((entry) => entry.level));
  return (
    <nav className="site-custom-pages__toc" aria-label="Table of contents">
      <h2>Contents</h2>
      <ul>
        {toc.map((entry) => (
          <li key={entry.anchor} style={{ paddingInlineStart: `${(entry.level - top) * 1}rem` }}>
            <a href={`#${entry.anchor}`}>{entry.text}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
