/**
 * LoadingPlaceholder's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const loadingPlaceholderStyles = `
.mp-placeholder { display: flex; flex-direction: column; gap: 8px; width: 100%; }
.mp-skeleton {
  display: block; border-radius: 4px;
  background: linear-gradient(90deg, var(--mp-skeleton) 25%, var(--mp-skeleton-shine) 37%, var(--mp-skeleton) 63%);
  background-size: 400% 100%; animation: mp-shimmer 1.4s ease infinite;
}
.mp-placeholder__line { height: 12px; }
@media (prefers-reduced-motion: reduce) { .mp-skeleton { animation: none; } }
`;
