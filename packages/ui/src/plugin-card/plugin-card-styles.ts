import { downloadsChartStyles } from '../downloads-chart/downloads-chart-css';
import { loadingPlaceholderStyles } from '../loading-placeholder/loading-placeholder-css';
import { starRatingStyles } from '../star-rating/star-rating-css';
import { tokenStyles } from '../styles/tokens';
import { cardStyles } from './card-styles';

/**
 * The styles a plugin or theme card needs, tokens first, then its own and those of the components it renders.
 * A set lives beside its component, not in styles/ui-styles: in the split SDK a module goes to one chunk, and
 * one module holding every set would pull every component into the chunk all elements share.
 */
export const PLUGIN_CARD_STYLES: readonly string[] = [
  tokenStyles,
  starRatingStyles,
  loadingPlaceholderStyles,
  cardStyles,
  downloadsChartStyles,
];
