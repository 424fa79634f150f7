/**
 * CourseButton's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const courseButtonStyles = `
.mp-course { display: inline-flex; flex-direction: column; align-items: flex-start; gap: 6px; }
.mp-course__hint { margin: 0; font: 12px/16px var(--mp-font); color: var(--mp-text-secondary); }
.mp-course--lti .mp-button { min-height: 40px; padding: 0 20px; border-radius: 20px; font-size: 15px; }
`;
