/**
 * @marketplace/elements for React hosts and bundlers: the element classes (React is a peer, so the host's
 * own React renders them), their registration, and the loader. Nothing is registered on import; call
 * `defineMarketplaceElements()` once, or the define function of each element you use.
 */
export { defineMarketplaceElements } from './define-all';
export { MpPluginCard, PLUGIN_CARD_TAG } from './mp-plugin-card/mp-plugin-card';
export type { PluginCardAttributes } from './mp-plugin-card/mp-plugin-card';
export { definePluginCard } from './mp-plugin-card/define';
export { MpInstallButton, INSTALL_BUTTON_TAG } from './mp-install-button/mp-install-button';
export type { InstallButtonAttributes } from './mp-install-button/mp-install-button';
export { defineInstallButton } from './mp-install-button/define';
export { MpAiButton, AI_BUTTON_TAG } from './mp-ai-button/mp-ai-button';
export type { AiButtonAttributes } from './mp-ai-button/mp-ai-button';
export { defineAiButton } from './mp-ai-button/define';
export { MpOpenCourse, OPEN_COURSE_TAG } from './mp-open-course/mp-open-course';
export type { OpenCourseAttributes } from './mp-open-course/mp-open-course';
export { defineOpenCourse } from './mp-open-course/define';
export { MpCourseLti, COURSE_LTI_TAG } from './mp-course-lti/mp-course-lti';
export type { CourseLtiAttributes } from './mp-course-lti/mp-course-lti';
export { defineCourseLti } from './mp-course-lti/define';
export { defineElement } from './shared/define-element';
export type { DefineOutcome } from './shared/define-element';
export { SDK_VERSION } from './shared/version';
export type { InstallButtonEventMap, InstallResultDetail, WidgetEventMap } from './shared/events';
export * from './loader/index';
