import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageButtons } from './PageButtons';

afterEach(() => {
  cleanup();
});

describe('PageButtons', () => {
  it('shows nothing when the list fits on one page', () => {
    const { container } = render(
      <PageButtons hasPrevious={false} hasNext={false} onPrevious={vi.fn()} onNext={vi.fn()} />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('offers the pages there are, in the words given, with what goes between', () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    render(
      <PageButtons
        hasPrevious={false}
        hasNext
        onPrevious={onPrevious}
        onNext={onNext}
        labels={['Newer', 'Older']}
      >
        <span>Page 1 of 3</span>
      </PageButtons>,
    );
    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    expect(screen.getByText('Page 1 of 3')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(onNext).toHaveBeenCalledOnce();
    expect(onPrevious).not.toHaveBeenCalled();
  });
});
