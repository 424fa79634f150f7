import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Link, withQuery } from './Link';

describe('Link', () => {
  it('opens internal links in the same window', () => {
    render(<Link href="/plugin/42-rainbow">Rainbow</Link>);
    const link = screen.getByRole('link', { name: 'Rainbow' });
    expect(link.getAttribute('href')).toBe('/plugin/42-rainbow');
    expect(link.getAttribute('target')).toBeNull();
  });

  it('opens external links in a new window without giving it this one', () => {
    render(<Link href="https://example.com/docs">Docs</Link>);
    const link = screen.getByRole('link', { name: 'Docs' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('keeps the current query string on internal links, the link’s own parameters first', () => {
    render(
      <Link href="/search?orderBy=name#results" keepQuery currentSearch="?search=git&orderBy=rating">
        Search
      </Link>,
    );
    expect(screen.getByRole('link').getAttribute('href')).toBe('/search?orderBy=name&search=git#results');
  });

  it('does not carry the query string to other sites', () => {
    render(
      <Link href="https://example.com" keepQuery currentSearch="?token=secret">
        Out
      </Link>,
    );
    expect(screen.getByRole('link').getAttribute('href')).toBe('https://example.com');
  });

  it('hands plain clicks on internal links to client-side navigation', async () => {
    const onNavigate = vi.fn();
    render(
      <Link href="/vendor" keepQuery currentSearch="?tab=all" onNavigate={onNavigate}>
        Vendor
      </Link>,
    );
    await userEvent.click(screen.getByRole('link'));
    expect(onNavigate).toHaveBeenCalledWith('/vendor?tab=all');
  });

  it('leaves a link without query untouched', () => {
    expect(withQuery('/a', '')).toBe('/a');
  });
});
