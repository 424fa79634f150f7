/**
 * AiButton's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const aiButtonStyles = `
.mp-ai-button { display: inline-block; }
.mp-ai-button .mp-button { font-weight: 600; }
.mp-ai-button--xs .mp-button { min-height: 24px; padding: 0 8px; font-size: 12px; line-height: 16px; }
.mp-ai-button--s .mp-button { min-height: 28px; padding: 0 12px; font-size: 13px; line-height: 18px; }
.mp-ai-button--m .mp-button { min-height: 36px; padding: 0 16px; font-size: 14px; line-height: 20px; }
.mp-ai-button--l .mp-button { min-height: 44px; padding: 0 22px; font-size: 16px; line-height: 22px; }
.mp-ai-button--multiline .mp-button { white-space: normal; text-align: center; padding-top: 6px; padding-bottom: 6px; }
`;
