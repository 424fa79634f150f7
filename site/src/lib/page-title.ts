import { pageTitle } from '@marketplace/core';
import { useEffect } from 'react';
import { useServerRender, type PageHead } from './server-render';

/**
 * Sets the window title to '<title> | Marketplace' (spec §1). While the server renders the page, the title
 * and `details` (made only there when a function: description, canonical path, preview image, structured data, status) go into its head
 * instead; the page rendered last (the innermost: a not-found page inside an item page) has the say.
 */
export function usePageTitle(
  title: string | undefined,
  details?: Omit<PageHead, 'title'> | (() => Omit<PageHead, 'title'>),
): void {
  const server = useServerRender();
  if (server && title) server.head = { title, ...(typeof details === 'function' ? details() : details) };
  useEffect(() => {
    if (title) document.title = pageTitle(title);
  }, [title]);
}
