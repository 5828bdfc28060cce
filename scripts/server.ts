import { createReadStream, existsSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequestListener } from "@react-router/node";
import { RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { clientAddress } from "../app/lib/client-address.server.ts";

/**
 * The production HTTP server: static files from build/client, everything else through React
 * Router. The request context carries the client's address for rate limits.
 */
const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const clientDir = path.join(buildDir, "client");

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://local").pathname);
  const file = path.join(clientDir, pathname);
  if (!file.startsWith(clientDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) return false;
  res.setHeader("Content-Type", CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream");
  res.setHeader("X-Content-Type-Options", "nosniff");
  // Vite fingerprints everything under /assets, so it never changes under the same name.
  res.setHeader("Cache-Control", pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600");
  if (req.method === "HEAD") res.end();
  else createReadStream(file).pipe(res);
  return true;
}

/**
 * Pages served with `Referrer-Policy: no-referrer` (the public test link) make browsers send
 * `Origin: null` when their forms post back, which React Router's action guard would refuse.
 * `Sec-Fetch-Site` cannot be set by a page, so when it says the post came from our own origin the
 * meaningless `null` is dropped and the request is judged like any other same-origin post.
 */
function trustSameOriginNullOrigin(req: http.IncomingMessage) {
  if (req.headers.origin === "null" && req.headers["sec-fetch-site"] === "same-origin") delete req.headers.origin;
}

export async function startServer(options: { port: number; host?: string; trustProxy: boolean }): Promise<http.Server> {
  const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
  const { clientAddressContext, scheduleHousekeeping } = build.entry.module as unknown as {
    clientAddressContext: RouterContext<string>;
    scheduleHousekeeping: () => () => void;
  };
  const listener = createRequestListener({
    build,
    mode: process.env.NODE_ENV ?? "production",
    getLoadContext(request, client) {
      const context = new RouterContextProvider();
      context.set(
        clientAddressContext,
        clientAddress(client.address, request.headers.get("x-forwarded-for"), options.trustProxy),
      );
      return context;
    },
  });
  const server = http.createServer((req, res) => {
    if (serveStatic(req, res)) return;
    trustSameOriginNullOrigin(req);
    void listener(req, res);
  });
  // Slow or idle clients must not hold sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const stopHousekeeping = scheduleHousekeeping();
  server.on("close", stopHousekeeping);
  return server;
}
