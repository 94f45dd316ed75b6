export { authenticateRequests } from './authenticate';
export { RequestAuthentication, type AuthenticationOptions } from './request-authentication';
export { authorizeRoutes, writesNeed } from './authorize-route';
export { sessionRouter } from './session-routes';
export { cors } from './cors';
export { ROUTE_ACCESS, routeAccessOf, describeAccess, type RouteAccess, type RouteRule } from './route-access';
