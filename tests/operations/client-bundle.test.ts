import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverTranslations } from "../../app/i18n/dictionaries.server.ts";
import { LOCALES } from "../../app/lib/i18n.ts";

/**
 * What the browser downloads is built from route modules whose server code React Router strips.
 * Zod (≈85 KB) is server-only: the pages get their constraints and messages from the loaders
 * (ADR 18), so no chunk may carry it. A stray import or a module-level schema puts it back. The
 * PDF's and the e-mails' words are server dictionaries (ADR 62) that no page may carry either.
 */
const assets = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");
const chunks = () => readdirSync(assets).filter((name) => name.endsWith(".js"));

describe("the browser's bundle", () => {
  it("given every JavaScript chunk of the build, should contain no Zod", () => {
    expect(chunks().length).toBeGreaterThan(10);
    // Zod's core defines `$ZodType` and names its errors `ZodError`; minifiers keep both strings.
    const withZod = chunks().filter((name) => /\$ZodType|ZodError/.test(readFileSync(path.join(assets, name), "utf8")));
    expect(withZod).toEqual([]);
  });

  it("given every JavaScript chunk of the build, should contain no sentence of the PDF or the e-mails in any language", () => {
    // Sentences no page string shares: one of each server group, in every language.
    const sentences = LOCALES.flatMap((locale) => {
      const t = serverTranslations(locale, "SCHOOL");
      return [t.pdf.noBandsDefined, t.mail.passwordReset.body("")[2]!];
    });
    const carrying = chunks().filter((name) => {
      const source = readFileSync(path.join(assets, name), "utf8");
      return sentences.some((sentence) => source.includes(sentence));
    });
    expect(carrying).toEqual([]);
  });
});
