import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepositoryHint } from './RepositoryHint';

const url = 'https://plugins.example.com/plugins/list';

afterEach(() => vi.unstubAllGlobals());

describe('RepositoryHint', () => {
  it('names the IDE and the settings page, and shows the address to add', () => {
    render(<RepositoryHint ideName="PyCharm 2025.2" repositoryUrl={url} />);
    expect(screen.getByRole('note').textContent).toContain(
      'Nothing in PyCharm 2025.2? Add this marketplace in Settings | Plugins | ⚙ | Manage Plugin ' +
        'Repositories, then install it from there:',
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Plugin repository URL' }).value).toBe(url);
  });

  it('copies the address with one click, and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<RepositoryHint ideName="PyCharm 2025.2" repositoryUrl={url} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('selects the address when the page may not write to the clipboard', async () => {
    for (const clipboard of [undefined, { writeText: () => Promise.reject(new Error('denied')) }]) {
      vi.stubGlobal('navigator', { ...navigator, clipboard });
      const { unmount } = render(<RepositoryHint ideName="PyCharm 2025.2" repositoryUrl={url} />);
      const field = screen.getByRole<HTMLInputElement>('textbox');
      await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
      await vi.waitFor(() => expect([field.selectionStart, field.selectionEnd]).toEqual([0, url.length]));
      expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
      unmount();
    }
  });
});
