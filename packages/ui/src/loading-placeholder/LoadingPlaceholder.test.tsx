import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoadingPlaceholder } from './LoadingPlaceholder';

function lineWidths(): string[] {
  return [...document.querySelectorAll<HTMLElement>('.mp-placeholder__line')].map((line) => line.style.width);
}

describe('LoadingPlaceholder', () => {
  it('shows three lines by default, 100, 80 and 70 percent wide, announced as loading', () => {
    render(<LoadingPlaceholder />);
    expect(screen.getByRole('status', { name: 'Loading' }).getAttribute('aria-busy')).toBe('true');
    expect(lineWidths()).toEqual(['100%', '80%', '70%']);
  });

  it('goes on to 50 percent and starts over for more lines', () => {
    render(<LoadingPlaceholder lines={6} />);
    expect(lineWidths()).toEqual(['100%', '80%', '70%', '50%', '100%', '80%']);
  });
});
