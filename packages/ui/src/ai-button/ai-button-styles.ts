import { repositoryHintStyles } from '../repository-hint/repository-hint-css';
import { tokenStyles } from '../styles/tokens';
import { aiButtonStyles } from './ai-button-css';

/**
 * The styles AiButton needs: tokens, its own and the repository hint.
 * A set lives beside its component, not in styles/ui-styles: in the split SDK a module goes to one chunk, and
 * one module holding every set would pull every component into the chunk all elements share.
 */
export const AI_BUTTON_STYLES: readonly string[] = [tokenStyles, aiButtonStyles, repositoryHintStyles];
