import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";
import { AccessLog, accessLog, requestId } from "../../../server/access-log.ts";
import { compressionWhenAccepted } from "../../../server/compression.ts";

/**
 * The bench's reference app: the smallest React Router 8 + Express + Prisma 7 server that answers
 * the session check and the reports list with the same statements as the app (./app/reads.server.ts),
 * the stack's own floor. With `ACCESS_LOG` unset it has `npm start`'s per-request layers (the
 * request id, the access log, compression for clients that accept it: the same modules as the
 * app's server); `ACCESS_LOG=false` leaves them out, as the bench's `--bare` does. Built by the
 * bench with `react-router build scripts/bench/reference` into BUILD_DIR.
 *
 *   BUILD_DIR=… DATABASE_URL=… PORT=… SESSION_SECRET=… tsx scripts/bench/reference/server.ts
 */
const buildDir = process.env.BUILD_DIR;
if (!buildDir) throw new Error("the reference app needs BUILD_DIR, where the bench built it");
const build = (await import(path.resolve(buildDir, "server/index.js"))) as ServerBuild;

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
if (process.env.ACCESS_LOG !== "false") {
  app.use(requestId);
  app.use(accessLog(new AccessLog()));
  app.use(compressionWhenAccepted());
}
app.all("/{*path}", createRequestHandler({ build, mode: "production" }));
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`reference app listening on ${process.env.PORT}`));
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => server.close(() => process.exit(0)));
