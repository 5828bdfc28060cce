import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What the browser downloads is built from route modules whose server code React Router strips.
 * Zod (≈85 KB) is server-only: the pages get their constraints and messages from the loaders
 * (ADR 18), so no chunk may carry it. A stray import or a module-level schema puts it back.
 */
const assets = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");

describe("the browser's bundle", () => {
  it("given every JavaScript chunk of the build, should contain no Zod", () => {
    const chunks = readdirSync(assets).filter((name) => name.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(10);
    // Zod's core defines `$ZodType` and names its errors `ZodError`; minifiers keep both strings.
    const withZod = chunks.filter((name) => /\$ZodType|ZodError/.test(readFileSync(path.join(assets, name), "utf8")));
    expect(withZod).toEqual([]);
  });
});
