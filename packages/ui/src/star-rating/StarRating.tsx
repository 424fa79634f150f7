import { DEFAULT_STAR_COUNT } from '@marketplace/core';
import { StarIcon } from './StarIcon';

export const STAR_RATING_SIZES = ['xs', 's', 'm', 'l'] as const;
export type StarRatingSize = (typeof STAR_RATING_SIZES)[number];

export interface StarRatingProps {
  /** The rating, from 0 to `max`; fractions fill a star partly. */
  value: number;
  /** Number of stars. */
  max?: number;
  size?: StarRatingSize;
  className?: string;
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, min), max) : min;
}

/** A read-only rating: whole, partly filled and empty stars, announced as one image with its value. */
export function StarRating({ value, max = DEFAULT_STAR_COUNT, size = 'm', className }: StarRatingProps) {
  const rating = clamp(value, 0, max);
  const shown = Math.round(rating * 10) / 10;
  return (
    <span
      className={['mp-stars', `mp-stars--${size}`, className].filter(Boolean).join(' ')}
      role="img"
      aria-label={`Rated ${shown} out of ${max}`}
    >
      {Array.from({ length: max }, (_, index) => {
        const fill = clamp(rating - index, 0, 1);
        return (
          <span className="mp-star" key={index} data-fill={fill}>
            <StarIcon />
            <span className="mp-star__fill" style={{ width: `${fill * 100}%` }}>
              <StarIcon />
            </span>
          </span>
        );
      })}
    </span>
  );
}
