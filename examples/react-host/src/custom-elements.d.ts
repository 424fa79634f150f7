import type { DetailedHTMLProps, HTMLAttributes } from 'react';

/** The SDK's elements as JSX tags: attributes as the elements read them (kebab-case strings). */
type WidgetElementProps = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  'plugin-id': string | number;
  'api-base'?: string;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'mp-plugin-card': WidgetElementProps;
      'mp-install-button': WidgetElementProps;
      'mp-ai-button': WidgetElementProps & { 'button-text'?: string; 'button-size'?: string };
      'mp-open-course': WidgetElementProps;
      'mp-course-lti': WidgetElementProps & {
        'launch-id'?: string;
        'study-item-id'?: string;
        'lms-description'?: string;
      };
    }
  }
}
