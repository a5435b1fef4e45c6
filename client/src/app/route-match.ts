/**
 * Which route module (file name in ./routes) renders a pathname, for src/preload-route.ts. The table is
 * shared with the API server, which names the route's files in the page it sends (@tukio/shared/client-routes);
 * keep it in step with ./router.tsx. Free of React: it runs before React has loaded.
 */
export { matchClientRoute as matchRoute, type ClientRouteMatch as RouteMatch } from '@tukio/shared/client-routes';
