import { aiButtonStyles } from '../ai-button/AiButton';
import { courseButtonStyles } from '../course-button/CourseButton';
import { downloadsChartStyles } from '../downloads-chart/DownloadsChart';
import { dropdownMenuStyles } from '../dropdown-menu/DropdownMenu';
import { installButtonStyles } from '../install-button/InstallButton';
import { linkStyles } from '../link/Link';
import { loadingPlaceholderStyles } from '../loading-placeholder/LoadingPlaceholder';
import { cardStyles } from '../plugin-card/card-styles';
import { starRatingInputStyles } from '../star-rating-input/StarRatingInput';
import { starRatingStyles } from '../star-rating/StarRating';
import { toastStyles } from '../toast/ToastProvider';
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
  courseButtonStyles,
].join('\n');

/** Renders the component styles; place it once, inside the shadow root or the page. */
export function UiStyles() {
  return <style>{UI_STYLES}</style>;
}
