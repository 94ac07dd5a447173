import type { Request } from 'express';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods some route serves at this request's path (for 405 and `Allow`), read from the
 * Express router Nest registered its routes on; catch-all routes are left out.
 */
export function allowedMethods(req: Request): string[] {
  const router = (req.app as unknown as { router?: { stack: RouteLayer[] } }).router;
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    if (!layer.route || layer.route.path.includes('*')) continue;
    if (!layer.match(req.path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
