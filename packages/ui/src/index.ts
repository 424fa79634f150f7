export {
  AI_BUTTON_STYLES,
  COURSE_BUTTON_STYLES,
  INSTALL_BUTTON_STYLES,
  PLUGIN_CARD_STYLES,
  UI_STYLES,
  UiStyles,
} from './styles/ui-styles';

export { StarRating, STAR_RATING_SIZES } from './star-rating/StarRating';
export type { StarRatingProps, StarRatingSize } from './star-rating/StarRating';
export { StarRatingInput } from './star-rating-input/StarRatingInput';
export type { StarRatingInputProps } from './star-rating-input/StarRatingInput';
export { DropdownMenu, DROPDOWN_TRANSITION_MS } from './dropdown-menu/DropdownMenu';
export type { DropdownMenuItem, DropdownMenuProps, DropdownState } from './dropdown-menu/DropdownMenu';
export { ToastProvider } from './toast/ToastProvider';
export { ToastContext, useToasts } from './toast/toast-context';
export type { Toast, ToastApi, ToastKind, ToastOptions } from './toast/toast-context';
export { LoadingPlaceholder, DEFAULT_PLACEHOLDER_LINES } from './loading-placeholder/LoadingPlaceholder';
export type { LoadingPlaceholderProps } from './loading-placeholder/LoadingPlaceholder';
export { Link, withQuery } from './link/Link';
export type { LinkProps } from './link/Link';

export { PluginCard, PluginCardSkeleton } from './plugin-card/PluginCard';
export type { PluginCardProps } from './plugin-card/PluginCard';
export { ThemeCard, ThemeCardSkeleton } from './theme-card/ThemeCard';
export type { ThemeCardProps } from './theme-card/ThemeCard';
export { PluginRecordCard } from './plugin-card/PluginRecordCard';
export type { PluginRecordCardProps } from './plugin-card/PluginRecordCard';
export { RemotePluginCard } from './plugin-card/RemotePluginCard';
export type { RemotePluginCardProps } from './plugin-card/RemotePluginCard';
export { cardItemFromPlugin, isThemePlugin } from './plugin-card/card-data';
export type { CardItem } from './plugin-card/card-data';
export { DownloadsChart } from './downloads-chart/DownloadsChart';
export type { DownloadPoint, DownloadsChartProps } from './downloads-chart/DownloadsChart';

export { useContentSize } from './embed/use-content-size';
export { IdeBridgeContext, useIdeBridge } from './ide/ide-bridge';
export type { IdeBridge } from './ide/ide-bridge';
export type { LocalNetworkPermission, LtiLaunch } from '@marketplace/ide-bridge';
export { useRunningIdes } from './ide/use-running-ides';
export type { RunningIdes, RunningIdesState, UseRunningIdesOptions } from './ide/use-running-ides';
export { CONFIRM_IN_IDE } from './ide/use-plugin-install';
export { isCompatibleByMarketplace, pluginRepositoryUrl } from './ide/item-compatibility';
export { RepositoryHint } from './repository-hint/RepositoryHint';
export type { RepositoryHintProps } from './repository-hint/RepositoryHint';
export { InstallButton } from './install-button/InstallButton';
export type { InstallButtonProps } from './install-button/InstallButton';
export { AiButton, AI_BUTTON_SIZES, trackedPluginUrl } from './ai-button/AiButton';
export type { AiButtonProps, AiButtonSize } from './ai-button/AiButton';
export { canOpenCourse, CourseLtiButton, OpenCourseButton } from './course-button/CourseButton';
export type { CourseLtiButtonProps, OpenCourseButtonProps } from './course-button/CourseButton';

export {
  fetchDailyDownloads,
  fetchPlugin,
  hasCompatibleVersion,
  MarketplaceApiError,
  statisticsRange,
} from './marketplace-api/marketplace-api';
export { useDailyDownloads, usePlugin } from './marketplace-api/hooks';
export type { AsyncState } from './marketplace-api/use-async';
