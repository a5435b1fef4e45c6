import type { Express } from 'express';

/**
 * The routes an Express 5 app has mounted, found by walking its router stack: the route declarations
 * (route-declaration.ts) read their registry through it, and the services' tests compare what is
 * mounted with what is declared and documented.
 */

export interface MountedRoute {
  /** Upper-case HTTP method (`GET`, `POST`, …); `ALL` for `router.all`. */
  method: string;
  /** Mount paths and the route path joined, e.g. `/api/events/:id`; a RegExp route as its source. */
  path: string;
}

interface LayerLike {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  rawPath?: unknown;
}

function joinPaths(base: string, part: string): string {
  if (!part || part === '/') return base || '/';
  const joined = `${base.replace(/\/+$/, '')}/${part.replace(/^\/+/, '')}`;
  return joined.startsWith('/') ? joined : `/${joined}`;
}

function pathsOf(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.flatMap(pathsOf);
  if (raw instanceof RegExp) return [`regexp:${raw.source}`];
  if (typeof raw === 'string') return [raw];
  return [''];
}

/** A mounted route with the router that declares it and its path inside that router. */
export interface RouteLayer extends MountedRoute {
  /** The router (or the app's own router) whose stack holds the route. */
  owner: object;
  /** The path as written in `owner`, e.g. `/:id` for `/api/events/:id`. */
  routePath: string;
  /** Where `owner` is mounted, e.g. `/api/events`. */
  base: string;
}

function walk(owner: object, stack: LayerLike[], base: string, out: RouteLayer[]) {
  for (const layer of stack) {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((name) => layer.route!.methods[name]);
      for (const routePath of pathsOf(layer.route.path)) {
        const full = routePath.startsWith('regexp:') ? routePath : joinPaths(base, routePath);
        for (const method of methods) out.push({ method: method === '_all' ? 'ALL' : method.toUpperCase(), path: full, owner, routePath, base });
      }
      continue;
    }
    // A mounted router (app.use('/api/x', router)) carries its own stack; plain middleware does not.
    const nested = layer.handle?.stack;
    if (Array.isArray(nested)) {
      for (const mount of pathsOf(layer.rawPath)) walk(layer.handle!, nested, mount.startsWith('regexp:') ? base : joinPaths(base, mount), out);
    }
  }
}

/** Every route layer of the app with its owning router, in mount order (the same walk as listRoutes). */
export function listRouteLayers(app: Express): RouteLayer[] {
  const out: RouteLayer[] = [];
  const root = (app as unknown as { router?: { stack?: LayerLike[] } }).router;
  if (root) walk(root, root.stack ?? [], '', out);
  return out;
}

/**
 * Every route an Express 5 app has mounted, each method and path once. The security tests use it so a
 * new route cannot ship without being classified in the authorization matrix.
 */
export function listRoutes(app: Express): MountedRoute[] {
  const seen = new Set<string>();
  const out: MountedRoute[] = [];
  for (const { method, path } of listRouteLayers(app)) {
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method, path });
  }
  return out;
}
