import type { Preview } from '@storybook/react-vite';
import { UiStyles } from '../styles/ui-styles';

/**
 * What every story shares, in Storybook and in the story tests: the component styles and the token root
 * the components expect around them.
 */
export const uiPreview: Preview = {
  decorators: [
    (Story) => (
      <div className="mp-root" style={{ padding: 24, minHeight: 120 }}>
        <UiStyles />
        <Story />
      </div>
    ),
  ],
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true },
  },
};
