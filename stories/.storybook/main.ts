import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: ['../*.mdx', '../../packages/ui/src/**/*.stories.tsx', '../elements/*.stories.tsx'],
  // Docs only: no addon here may reach the network (the catalogue must build and run offline).
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Answers in the marketplace API's shape at its paths, for the components that fetch.
  staticDirs: ['../public'],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
    enableCrashReports: false,
  },
  typescript: { reactDocgen: 'react-docgen-typescript' },
};

export default config;
