/** The mounted-route walk lives with the route declarations in @tukio/shared; the server's tests read it from here. */
export { listRouteLayers, listRoutes, type MountedRoute, type RouteLayer } from '@tukio/shared/node/express-routes';
