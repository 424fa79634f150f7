import { DEFAULT_STAR_COUNT } from '@marketplace/core';
import { useId, useState } from 'react';
import { StarIcon } from '../star-rating/StarIcon';

export interface StarRatingInputProps {
  /** Visible label of the group, e.g. "Your rating". */
  label: string;
  /** The chosen rating (1 to `max`), or 0 when none is chosen yet. */
  value: number;
  onChange: (value: number) => void;
  /** Form field name of the radio buttons. */
  name?: string;
  max?: number;
  /** Help text under the stars. */
  note?: string;
  /** Error text under the stars; marks the group invalid. */
  error?: string;
  disabled?: boolean;
  required?: boolean;
}

export const starRatingInputStyles = `
.mp-rating-input { display: inline-flex; flex-direction: column; gap: 4px; border: 0; margin: 0; padding: 0; }
.mp-rating-input__label { font: 500 14px/20px var(--mp-font); color: var(--mp-text); }
.mp-rating-input__stars { display: inline-flex; gap: 2px; }
.mp-rating-input__star { position: relative; display: inline-flex; width: 28px; height: 28px; color: var(--mp-star-empty); cursor: pointer; }
.mp-rating-input__star svg { width: 100%; height: 100%; }
.mp-rating-input__star--on { color: var(--mp-star); }
.mp-rating-input__star input { position: absolute; inset: 0; margin: 0; opacity: 0; cursor: inherit; }
.mp-rating-input__star:has(input:focus-visible) { outline: 2px solid var(--mp-accent); outline-offset: 1px; border-radius: 4px; }
.mp-rating-input--disabled .mp-rating-input__star { cursor: not-allowed; opacity: 0.5; }
.mp-rating-input__note { font: 12px/16px var(--mp-font); color: var(--mp-text-secondary); }
.mp-rating-input__error { font: 12px/16px var(--mp-font); color: var(--mp-danger); }
`;

/** Rating entry as a group of radio buttons drawn as stars: arrow keys move, the chosen star and those before it light up. */
export function StarRatingInput({
  label,
  value,
  onChange,
  name,
  max = DEFAULT_STAR_COUNT,
  note,
  error,
  disabled = false,
  required = false,
}: StarRatingInputProps) {
  const id = useId();
  const [hovered, setHovered] = useState<number | undefined>(undefined);
  const lit = disabled ? value : (hovered ?? value);
  const describedBy = [note ? `${id}-note` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`mp-rating-input${disabled ? ' mp-rating-input--disabled' : ''}`}>
      <span className="mp-rating-input__label" id={`${id}-label`}>
        {label}
      </span>
      <div
        className="mp-rating-input__stars"
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-disabled={disabled || undefined}
        onMouseLeave={() => setHovered(undefined)}
      >
        {Array.from({ length: max }, (_, index) => {
          const starValue = index + 1;
          return (
            <label
              key={starValue}
              className={`mp-rating-input__star${starValue <= lit ? ' mp-rating-input__star--on' : ''}`}
              onMouseEnter={() => setHovered(starValue)}
            >
              <input
                type="radio"
                name={name ?? `${id}-rating`}
                value={starValue}
                checked={value === starValue}
                disabled={disabled}
                required={required}
                aria-label={starValue === 1 ? '1 star' : `${starValue} stars`}
                onChange={() => onChange(starValue)}
              />
              <StarIcon />
            </label>
          );
        })}
      </div>
      {note ? (
        <span className="mp-rating-input__note" id={`${id}-note`}>
          {note}
        </span>
      ) : null}
      {error ? (
        <span className="mp-rating-input__error" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
