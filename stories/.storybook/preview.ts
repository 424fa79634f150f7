import type { Preview } from '@storybook/react-vite';
import { uiPreview } from '../../packages/ui/src/storybook/preview';

/** The same decorators and parameters the story tests use (packages/ui/src/stories.test.tsx). */
const preview: Preview = {
  ...uiPreview,
  tags: ['autodocs'],
};

export default preview;
