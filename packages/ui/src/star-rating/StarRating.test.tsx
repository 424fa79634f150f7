import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StarRating } from './StarRating';

function fills(): string[] {
  return [...document.querySelectorAll<HTMLElement>('.mp-star__fill')].map((element) => element.style.width);
}

describe('StarRating', () => {
  it('shows five stars with a partly filled one for a fractional rating', () => {
    render(<StarRating value={3.5} />);
    expect(screen.getByRole('img', { name: 'Rated 3.5 out of 5' })).toBeTruthy();
    expect(fills()).toEqual(['100%', '100%', '100%', '50%', '0%']);
  });

  it('keeps ratings within range', () => {
    render(<StarRating value={9} />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Rated 5 out of 5');
    expect(fills()).toEqual(['100%', '100%', '100%', '100%', '100%']);
  });

  it('shows an unrated item as empty stars', () => {
    render(<StarRating value={Number.NaN} />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Rated 0 out of 5');
    expect(fills().every((width) => width === '0%')).toBe(true);
  });

  it.each(['xs', 's', 'm', 'l'] as const)('comes in size %s', (size) => {
    render(<StarRating value={4} size={size} />);
    expect(screen.getByRole('img').classList.contains(`mp-stars--${size}`)).toBe(true);
  });

  it('can show another number of stars', () => {
    render(<StarRating value={2.25} max={3} />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Rated 2.3 out of 3');
    expect(fills()).toEqual(['100%', '100%', '25%']);
  });
});
