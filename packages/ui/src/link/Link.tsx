import { opensInSameWindow } from '@marketplace/core';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'target' | 'rel'> {
  href: string;
  /** Carry the current page's query string over to an internal link (the link's own parameters win). */
  keepQuery?: boolean;
  /** The current query string; defaults to the page's own. */
  currentSearch?: string;
  /** Client-side navigation for internal links; without it the browser follows the link. */
  onNavigate?: (href: string) => void;
  children?: ReactNode;
}

/** Adds the parameters of `search` to `href` that `href` does not set itself. */
export function withQuery(href: string, search: string): string {
  const kept = new URLSearchParams(search);
  if ([...kept.keys()].length === 0) return href;
  const hashIndex = href.indexOf('#');
  const hash = hashIndex >= 0 ? href.slice(hashIndex) : '';
  const withoutHash = hashIndex >= 0 ? href.slice(0, hashIndex) : href;
  const queryIndex = withoutHash.indexOf('?');
  const path = queryIndex >= 0 ? withoutHash.slice(0, queryIndex) : withoutHash;
  const own = new URLSearchParams(queryIndex >= 0 ? withoutHash.slice(queryIndex + 1) : '');
  for (const [key, value] of kept) if (!own.has(key)) own.append(key, value);
  return `${path}?${own.toString()}${hash}`;
}

function currentPageSearch(): string {
  return typeof window === 'undefined' ? '' : window.location.search;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * A link that knows internal from external: internal ones (starting with / or mailto:) open in the same
 * window and may keep the query string; external ones open in a new window without access to this one.
 */
export function Link({
  href,
  keepQuery = false,
  currentSearch,
  onNavigate,
  onClick,
  className,
  children,
  ...rest
}: LinkProps) {
  const internal = opensInSameWindow(href);
  const target =
    internal && keepQuery && !href.startsWith('mailto:')
      ? withQuery(href, currentSearch ?? currentPageSearch())
      : href;
  const classes = ['mp-link', className].filter(Boolean).join(' ');
  if (!internal) {
    return (
      <a
        {...rest}
        className={classes}
        href={target}
        target="_blank"
        rel="noopener noreferrer"
        onClick={onClick}
      >
        {children}
      </a>
    );
  }
  return (
    <a
      {...rest}
      className={classes}
      href={target}
      onClick={(event) => {
        onClick?.(event);
        if (onNavigate && !event.defaultPrevented && isPlainLeftClick(event) && !href.startsWith('mailto:')) {
          event.preventDefault();
          onNavigate(target);
        }
      }}
    >
      {children}
    </a>
  );
}
