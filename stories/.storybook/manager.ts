import { addons } from 'storybook/manager-api';
import { create } from 'storybook/theming';

addons.setConfig({
  theme: create({
    base: 'light',
    brandTitle: 'Marketplace UI',
    colorPrimary: '#167dff',
    colorSecondary: '#167dff',
  }),
});
