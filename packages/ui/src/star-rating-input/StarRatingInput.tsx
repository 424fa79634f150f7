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
