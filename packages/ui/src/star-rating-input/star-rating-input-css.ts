/**
 * StarRatingInput's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
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
