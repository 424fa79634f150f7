import { aiButtonStyles } from '../ai-button/ai-button-css';
import { courseButtonStyles } from '../course-button/course-button-css';
import { downloadsChartStyles } from '../downloads-chart/downloads-chart-css';
import { dropdownMenuStyles } from '../dropdown-menu/dropdown-menu-css';
import { installButtonStyles } from '../install-button/install-button-css';
import { linkStyles } from '../link/link-css';
import { loadingPlaceholderStyles } from '../loading-placeholder/loading-placeholder-css';
import { cardStyles } from '../plugin-card/card-styles';
import { repositoryHintStyles } from '../repository-hint/repository-hint-css';
import { starRatingInputStyles } from '../star-rating-input/star-rating-input-css';
import { starRatingStyles } from '../star-rating/star-rating-css';
import { toastStyles } from '../toast/toast-css';
import { tokenStyles } from './tokens';

/**
 * Every style of the components as one plain CSS text: put it in a <style> of the page, or of a shadow
 * root when the components live inside a custom element. Components render inside an element with the
 * class `mp-root` (or a shadow root, where `:host` carries the tokens).
 */
export const UI_STYLES = [
  tokenStyles,
  linkStyles,
  starRatingStyles,
  starRatingInputStyles,
  dropdownMenuStyles,
  toastStyles,
  loadingPlaceholderStyles,
  cardStyles,
  downloadsChartStyles,
  installButtonStyles,
  aiButtonStyles,
  repositoryHintStyles,
  courseButtonStyles,
].join('\n');

/**
 * The styles one component needs, tokens first, then its own and those of the components it renders: a
 * custom element adopts only its component's set, so a bundle of a few components ships only their CSS.
 * Each entry is one of the texts above, so a page can share one parsed sheet per text between elements.
 */
export { PLUGIN_CARD_STYLES } from '../plugin-card/plugin-card-styles';
export { INSTALL_BUTTON_STYLES } from '../install-button/install-button-styles';
export { AI_BUTTON_STYLES } from '../ai-button/ai-button-styles';
export { COURSE_BUTTON_STYLES } from '../course-button/course-button-styles';

/** Renders the component styles; place it once, inside the shadow root or the page. */
export function UiStyles() {
  return <style>{UI_STYLES}</style>;
}
