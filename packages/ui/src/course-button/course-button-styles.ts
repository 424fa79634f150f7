import { tokenStyles } from '../styles/tokens';
import { toastStyles } from '../toast/toast-css';
import { courseButtonStyles } from './course-button-css';

/**
 * The styles OpenCourseButton and CourseLtiButton need: tokens, the toasts they report through, their own.
 * A set lives beside its component, not in styles/ui-styles: in the split SDK a module goes to one chunk, and
 * one module holding every set would pull every component into the chunk all elements share.
 */
export const COURSE_BUTTON_STYLES: readonly string[] = [tokenStyles, toastStyles, courseButtonStyles];
