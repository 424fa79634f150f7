import type { ReactNode } from 'react';

export interface PageButtonsProps {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  /** The buttons' words, e.g. ['Newer', 'Older'] for a log (default: previous page, next page). */
  labels?: readonly [previous: string, next: string];
  /** Shown between the buttons, e.g. "Page 2 of 5". */
  children?: ReactNode;
}

/** The previous and next buttons under a paged list; nothing when the list fits on one page. */
export function PageButtons({
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  labels = ['Previous page', 'Next page'],
  children,
}: PageButtonsProps) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <div className="site-form-actions">
      <button type="button" className="site-button-secondary" disabled={!hasPrevious} onClick={onPrevious}>
        {labels[0]}
      </button>
      {children}
      <button type="button" className="site-button-secondary" disabled={!hasNext} onClick={onNext}>
        {labels[1]}
      </button>
    </div>
  );
}
