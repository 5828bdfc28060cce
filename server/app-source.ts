import { existsSync, readdirSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import express, { type RequestHandler } from "express";
import type { ServerBuild } from "react-router";

/**
 * Where the HTTP server (server/main.ts) gets the app from, the one thing `npm start` and `npm run
 * dev` do differently (ADR 58): the built bundle under build/, or the source through Vite. Every
 * middleware, the job worker and the worker pools are the same in both.
 */
export type AppSource = {
  /** React Router's mode: "development" shows an unexpected error's message and stack in the page. */
  mode: "production" | "development";
  /** The app as first loaded: the server starts its job worker, housekeeping and health probe from it. */
  build: ServerBuild;
  /** The app for one request, when it can change while the server runs (development: as of the latest edit). */
  current?: () => Promise<ServerBuild>;
  /** Adds the handlers that serve the browser's files (ahead of load shedding and React Router). */
  serveClientFiles: (app: express.Express) => void;
  close: () => Promise<void>;
};

/** `npm start`: the bundle `npm run build` wrote, loaded once. */
export async function builtApp(buildDir: string): Promise<AppSource> {
  const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
  return { mode: "production", build, serveClientFiles: builtClientFiles(path.join(buildDir, "client")), close: async () => {} };
}

/** Vite's name for the app's server bundle, which the React Router plugin makes from the source. */
const SERVER_BUILD = "virtual:react-router/server-build";

/**
 * `npm run dev`: Vite in middleware mode inside our own server, as React Router's
 * `node-custom-server` template and the Epic Stack run it. Each request gets the app from Vite's
 * SSR module runner, which re-evaluates it after an edit (no restart); `onReload` hears of each
 * new one as the first request meets it. Vite's middlewares serve the browser's modules, and its
 * hot-update socket shares the server's port (the page's CSP allows connections to its own origin
 * only).
 */
export async function viteApp(server: http.Server, onReload: (build: ServerBuild) => void): Promise<AppSource> {
  const vite = await import("vite");
  const dev = await withoutExitOnSignal(() =>
    vite.createServer({
      appType: "custom",
      server: {
        middlewareMode: true,
        hmr: { server },
        // The database, its journal and the written e-mails change all the time and are no source.
        watch: { ignored: ["**/data/**", "**/build*/**"] },
      },
    }),
  );
  const ssr = dev.environments.ssr;
  if (!vite.isRunnableDevEnvironment(ssr)) throw new Error("Vite's SSR environment cannot run modules in this process.");
  let served = (await ssr.runner.import(SERVER_BUILD)) as ServerBuild;
  return {
    mode: "development",
    build: served,
    current: async () => {
      const build = (await ssr.runner.import(SERVER_BUILD)) as ServerBuild;
      if (build !== served) {
        served = build;
        onReload(build);
      }
      return build;
    },
    serveClientFiles: (app) => app.use(dev.middlewares as unknown as RequestHandler),
    close: () => dev.close(),
  };
}

/**
 * React Router's plugin starts a second Vite server of its own (its route compiler), and such a
 * server ends the process on SIGTERM, or when standard input ends, without waiting: requests and
 * jobs in progress would be cut short. Those handlers are removed; the server's own stop
 * (server/main.ts) closes Vite with the rest.
 */
async function withoutExitOnSignal<T>(create: () => Promise<T>): Promise<T> {
  const before = { sigterm: new Set(process.listeners("SIGTERM")), stdinEnd: new Set(process.stdin.listeners("end")) };
  const created = await create();
  for (const listener of process.listeners("SIGTERM")) if (!before.sigterm.has(listener)) process.off("SIGTERM", listener);
  for (const listener of process.stdin.listeners("end")) if (!before.stdinEnd.has(listener)) process.stdin.off("end", listener as () => void);
  return created;
}

/**
 * The client build: `/assets/*` are fingerprinted by Vite (the same name never changes content)
 * and cached for a year; the files at the top (public/: the favicon) for an hour.
 */
const builtClientFiles = (clientDir: string) => (app: express.Express) => {
  app.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), {
      immutable: true,
      maxAge: "1y",
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: noSniff,
    }),
  );
  app.use(onlyFor(publicFiles(clientDir), express.static(clientDir, { maxAge: "1h", index: false, redirect: false, setHeaders: noSniff })));
};

/**
 * The URL paths of the files at the top of the client build, read once at start: the build does
 * not change while the server runs. Asking the file system for every request (`express.static`
 * stats the path first) cost an API request a `stat` call on the event loop's thread pool, ≈6 %
 * of a small request's time.
 */
function publicFiles(clientDir: string): ReadonlySet<string> {
  const files = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (prefix === "" && entry.name === "assets") continue;
        walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      } else files.add(encodeURI(`${prefix}/${entry.name}`));
    }
  };
  if (existsSync(clientDir)) walk(clientDir, "");
  return files;
}

/** `handler` for the request paths in `paths`, the next handler for every other one. */
const onlyFor =
  (paths: ReadonlySet<string>, handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    paths.has(req.path) ? handler(req, res, next) : next();

const noSniff = (res: { setHeader(name: string, value: string): void }) => res.setHeader("X-Content-Type-Options", "nosniff");
