import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Wait this long before answering (a slow server). */
  delayMs?: number;
}

export interface ImageServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  set(path: string, route: Route): void;
  /** How many requests each path has had: tests prove the cache by it. */
  hits(path: string): number;
  close(): Promise<void>;
}

/** A loopback HTTP server whose routes tests set: images, redirects, slow and wrong answers. */
export async function startImageServer(): Promise<ImageServer> {
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const pending = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const answer = () => {
      res.writeHead(route.status ?? 200, route.headers ?? {});
      res.end(route.body ?? '');
    };
    if (!route.delayMs) return answer();
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!res.destroyed) answer();
    }, route.delayMs);
    pending.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    set: (path, route) => routes.set(path, route),
    hits: (path) => counts.get(path) ?? 0,
    async close() {
      for (const t of pending) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
