import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { StarRatingInputProps } from './StarRatingInput';
import { StarRatingInput } from './StarRatingInput';

function Rated(props: Partial<StarRatingInputProps>) {
  const [value, setValue] = useState(props.value ?? 0);
  return (
    <StarRatingInput
      label="Your rating"
      {...props}
      value={value}
      onChange={(next) => {
        setValue(next);
        props.onChange?.(next);
      }}
    />
  );
}

describe('StarRatingInput', () => {
  it('is a labelled radio group of five stars', () => {
    render(<Rated note="Rate from 1 to 5" />);
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    expect(group.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Rate from 1 to 5')).toBeTruthy();
  });

  it('chooses a rating by clicking a star, and lights the stars up to it', async () => {
    const onChange = vi.fn();
    render(<Rated onChange={onChange} />);
    await userEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    expect(onChange).toHaveBeenCalledWith(4);
    expect((screen.getByRole('radio', { name: '4 stars' }) as HTMLInputElement).checked).toBe(true);
    expect(document.querySelectorAll('.mp-rating-input__star--on')).toHaveLength(4);
  });

  it('moves the rating with the arrow keys', async () => {
    render(<Rated value={2} />);
    screen.getByRole('radio', { name: '2 stars' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect((screen.getByRole('radio', { name: '3 stars' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows an error and marks the group invalid', () => {
    render(<Rated error="Please choose a rating" />);
    expect(screen.getByRole('alert').textContent).toBe('Please choose a rating');
    expect(screen.getByRole('radiogroup').getAttribute('aria-invalid')).toBe('true');
  });

  it('cannot be changed when disabled', async () => {
    const onChange = vi.fn();
    render(<Rated value={3} disabled onChange={onChange} />);
    await userEvent.click(screen.getByRole('radio', { name: '5 stars' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getAllByRole('radio').every((radio) => (radio as HTMLInputElement).disabled)).toBe(true);
  });
});
