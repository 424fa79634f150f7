export { consentRoutes } from './routes';
