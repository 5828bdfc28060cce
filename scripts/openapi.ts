/**
 * `npm run openapi` (after `npm run build`): writes the OpenAPI document the built app serves to
 * docs/openapi.json, and the TypeScript types generated from it (openapi-typescript) to
 * tests/support/openapi-types.ts, which the typed-client test uses. A test fails when the served
 * document and docs/openapi.json differ, so both stay current.
 *
 * openapi-typescript needs TypeScript 5's compiler API (the project builds with TypeScript 7, which
 * has none), so it runs through npx in a directory of its own.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
const loader = build.routes["routes/api/openapi"]?.module.loader as ((args: unknown) => Promise<Response>) | undefined;
if (!loader) throw new Error("The build has no routes/api/openapi route: run npm run build first.");
const response = await loader({ request: new Request("http://localhost/api/openapi"), params: {}, context: undefined });
const document = `${JSON.stringify(await response.json(), null, 2)}\n`;
const documentPath = path.join(root, "docs/openapi.json");
writeFileSync(documentPath, document);

const typesPath = path.join(root, "tests/support/openapi-types.ts");
execFileSync(
  "npx",
  ["-y", "-p", "openapi-typescript@7.13.0", "-p", "typescript@5.9.3", "openapi-typescript", documentPath, "--default-non-nullable", "false", "-o", typesPath],
  {
    cwd: tmpdir(),
    stdio: "inherit",
  },
);
console.log(`Wrote ${path.relative(root, documentPath)} and ${path.relative(root, typesPath)}.`);
