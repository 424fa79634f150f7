import { LOADING_PLACEHOLDER_WIDTHS } from '@marketplace/core';

export interface LoadingPlaceholderProps {
  /** Number of text lines to stand in for. */
  lines?: number;
  /** Width of each line in percent; lines past the end of the list start over from its beginning. */
  widths?: readonly number[];
  /** Text read to screen-reader users while the content loads. */
  label?: string;
  /** Part of a larger placeholder that announces itself: draw the lines only. */
  decorative?: boolean;
  className?: string;
}

export const DEFAULT_PLACEHOLDER_LINES = 3;

/** Grey bars where text will appear, so the layout does not jump when it arrives. */
export function LoadingPlaceholder({
  lines = DEFAULT_PLACEHOLDER_LINES,
  widths = LOADING_PLACEHOLDER_WIDTHS,
  label = 'Loading',
  decorative = false,
  className,
}: LoadingPlaceholderProps) {
  const count = Math.max(0, Math.floor(lines));
  return (
    <div
      className={['mp-placeholder', className].filter(Boolean).join(' ')}
      {...(decorative ? { 'aria-hidden': true } : { role: 'status', 'aria-busy': true, 'aria-label': label })}
    >
      {Array.from({ length: count }, (_, index) => (
        <span
          key={index}
          className="mp-skeleton mp-placeholder__line"
          style={{ width: `${widths.length > 0 ? widths[index % widths.length] : 100}%` }}
        />
      ))}
    </div>
  );
}
