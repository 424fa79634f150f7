import { pageTitle } from '@marketplace/core';
import { useEffect } from 'react';

/** Sets the window title to '<title> | Marketplace' (spec §1). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = pageTitle(title);
  }, [title]);
}
