import { dropdownMenuStyles } from '../dropdown-menu/dropdown-menu-css';
import { repositoryHintStyles } from '../repository-hint/repository-hint-css';
import { tokenStyles } from '../styles/tokens';
import { toastStyles } from '../toast/toast-css';
import { installButtonStyles } from './install-button-css';

/**
 * The styles InstallButton needs: tokens, its IDE menu, its toasts, its own and the repository hint.
 * A set lives beside its component, not in styles/ui-styles: in the split SDK a module goes to one chunk, and
 * one module holding every set would pull every component into the chunk all elements share.
 */
export const INSTALL_BUTTON_STYLES: readonly string[] = [
  tokenStyles,
  dropdownMenuStyles,
  toastStyles,
  installButtonStyles,
  repositoryHintStyles,
];
