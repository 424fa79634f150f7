export { featuredRoutes } from './routes';
export { loadFeaturedItems, setFeaturedItems } from './service';
