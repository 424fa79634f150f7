import { THEME_CARD_IMAGE } from '@marketplace/core';

export const cardStyles = `
.mp-card {
  position: relative; display: flex; flex-direction: column; gap: 10px; box-sizing: border-box;
  width: 100%; max-width: 420px; padding: 16px; border: 1px solid var(--mp-border); border-radius: 8px;
  background: var(--mp-surface); color: var(--mp-text); font: 14px/20px var(--mp-font);
  transition: box-shadow 120ms ease, border-color 120ms ease;
}
.mp-card:hover { border-color: var(--mp-accent); box-shadow: var(--mp-shadow); }
.mp-card:focus-within { border-color: var(--mp-accent); }
.mp-card__header { display: flex; gap: 12px; align-items: flex-start; }
.mp-card__icon {
  flex: none; width: 48px; height: 48px; border-radius: 8px; object-fit: contain; background: var(--mp-surface);
}
.mp-card__icon--letter {
  display: flex; align-items: center; justify-content: center; background: var(--mp-accent-soft);
  color: var(--mp-accent); font-weight: 700; font-size: 20px;
}
.mp-card__titles { min-width: 0; }
.mp-card__name { margin: 0; font-size: 16px; line-height: 22px; font-weight: 600; overflow-wrap: anywhere; }
.mp-card__name a { color: inherit; text-decoration: none; }
.mp-card__name a::after { content: ''; position: absolute; inset: 0; border-radius: 8px; }
.mp-card__name a:focus-visible { outline: none; }
.mp-card__name a:focus-visible::after { outline: 2px solid var(--mp-accent); outline-offset: 2px; }
.mp-card__vendor { margin: 2px 0 0; color: var(--mp-text-secondary); font-size: 13px; }
.mp-card__rating { display: flex; align-items: center; gap: 6px; font-size: 12px; color: var(--mp-text-secondary); }
.mp-card__description { margin: 0; color: var(--mp-text); display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.mp-card__description--empty { color: var(--mp-text-secondary); font-style: italic; }
.mp-card__meta { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 0; padding: 0; list-style: none; font-size: 12px; color: var(--mp-text-secondary); }
.mp-card__pricing { color: var(--mp-accent-strong); font-weight: 600; }
.mp-card--theme { max-width: ${THEME_CARD_IMAGE.width + 34}px; padding: 0 0 16px; overflow: hidden; }
.mp-card--theme > :not(.mp-card__image):not(.mp-card__cover) { padding: 0 16px; }
.mp-card__image, .mp-card__cover {
  display: block; box-sizing: border-box; width: 100%; max-width: ${THEME_CARD_IMAGE.width}px;
  aspect-ratio: ${THEME_CARD_IMAGE.width} / ${THEME_CARD_IMAGE.height};
  margin: 16px auto 0; border-radius: 4px; object-fit: cover; background: var(--mp-skeleton);
}
.mp-card__cover {
  position: relative; display: flex; align-items: center; justify-content: center; overflow: hidden;
  padding: 16px; background-color: var(--mp-accent);
}
.mp-card__cover::before {
  content: ''; position: absolute; inset: 0;
  background: repeating-linear-gradient(45deg, rgb(255 255 255 / 0.07) 0 12px, transparent 12px 24px);
}
.mp-card__cover-name {
  position: relative; color: #fff; font-size: 22px; line-height: 28px; font-weight: 700; text-align: center;
  text-shadow: 0 1px 2px rgb(0 0 0 / 0.35); overflow-wrap: anywhere;
  display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden;
}
.mp-card__cover > .mp-card__image {
  position: absolute; inset: 0; width: 100%; height: 100%; max-width: none; margin: 0; border-radius: 0;
  background: transparent;
}
.mp-card--skeleton:hover { border-color: var(--mp-border); box-shadow: none; }
.mp-card__skeleton-icon { width: 48px; height: 48px; border-radius: 8px; }
.mp-card__skeleton-title { width: 60%; height: 18px; }
.mp-card__skeleton-line { height: 12px; }
`;
