import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SITE_LINKS_META } from '../lib/site-links';
import { SiteFooterLinks } from './SiteFooterLinks';

/** Serves the page as the server does: the operator's links in the head's meta tag. */
function serveWith(links: unknown) {
  const meta = document.createElement('meta');
  meta.name = SITE_LINKS_META;
  meta.content = typeof links === 'string' ? links : JSON.stringify(links);
  document.head.append(meta);
}

afterEach(() => {
  cleanup();
  document.head.querySelectorAll(`meta[name="${SITE_LINKS_META}"]`).forEach((meta) => meta.remove());
});

describe('the footer links', () => {
  it('shows the links the operator set, external ones in a new window, and no others', () => {
    serveWith({
      social: [{ label: 'X', url: 'https://x.com/acme' }],
      blog: 'https://blog.acme.example/',
      issueTracker: 'https://issues.acme.example/MP',
      supportEmail: 'support@acme.example',
    });
    render(<SiteFooterLinks />);
    const nav = screen.getByRole('navigation', { name: 'Marketplace links' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['X', 'https://x.com/acme'],
      ['Blog', 'https://blog.acme.example/'],
      ['Report an issue', 'https://issues.acme.example/MP'],
      ['support@acme.example', 'mailto:support@acme.example'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Blog' }).getAttribute('target')).toBe('_blank');
    expect(within(nav).getByRole('link', { name: 'Blog' }).getAttribute('rel')).toContain('noopener');
    expect(within(nav).getByRole('link', { name: 'support@acme.example' }).getAttribute('target')).toBeNull();
    expect(nav.textContent).toContain('Support: support@acme.example');
    for (const unset of ['Videos', 'Forum', 'Privacy policy']) {
      expect(within(nav).queryByRole('link', { name: unset })).toBeNull();
    }
  });

  it('renders nothing when no link is set, or the tag cannot be read', () => {
    const { container, unmount } = render(<SiteFooterLinks />);
    expect(container.innerHTML).toBe('');
    unmount();
    serveWith('{not json');
    expect(render(<SiteFooterLinks />).container.innerHTML).toBe('');
  });

  it('leaves out what is not a web address', () => {
    serveWith({
      blog: 'javascript:alert(1)',
      forum: 'https://forum.acme.example/',
      social: [{ label: 'X' }],
    });
    render(<SiteFooterLinks />);
    const nav = screen.getByRole('navigation', { name: 'Marketplace links' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Forum']);
  });
});
