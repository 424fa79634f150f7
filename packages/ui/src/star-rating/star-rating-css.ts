/**
 * StarRating's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const starRatingStyles = `
.mp-stars { display: inline-flex; gap: 2px; line-height: 0; vertical-align: middle; }
.mp-star { position: relative; display: inline-block; color: var(--mp-star-empty); }
.mp-star svg { display: block; width: 100%; height: 100%; }
.mp-star__fill { position: absolute; inset: 0 auto 0 0; overflow: hidden; color: var(--mp-star); }
.mp-star__fill svg { width: var(--mp-star-size); height: var(--mp-star-size); }
.mp-stars--xs { --mp-star-size: 10px; }
.mp-stars--s { --mp-star-size: 12px; }
.mp-stars--m { --mp-star-size: 16px; }
.mp-stars--l { --mp-star-size: 24px; }
.mp-stars .mp-star { width: var(--mp-star-size); height: var(--mp-star-size); }
`;
