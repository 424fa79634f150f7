/** The widget types of the vendor's `setupMarketplaceWidget(type, pluginId, root)` and of /embeddable/{type}. */
export const WIDGET_TYPES = ['card', 'install', 'ai', 'open-course', 'course-lti'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** The custom element that renders each widget type in element mode. */
export const WIDGET_ELEMENT_NAMES = {
  card: 'mp-plugin-card',
  install: 'mp-install-button',
  ai: 'mp-ai-button',
  'open-course': 'mp-open-course',
  'course-lti': 'mp-course-lti',
} as const satisfies Record<WidgetType, string>;

export function isWidgetType(value: unknown): value is WidgetType {
  return typeof value === 'string' && (WIDGET_TYPES as readonly string[]).includes(value);
}
