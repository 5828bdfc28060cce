import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dictionaries } from "../support/dictionaries.ts";
import { en } from "../../app/i18n/en.ts";
import { newPasswordSchema } from "../../app/features/auth/password-policy.server.ts";
import { LOCALES } from "../../app/lib/i18n.ts";
import { fieldText, problemText } from "../../app/lib/messages.ts";
import { ApiError, fieldProblems, issueMessage, pageErrors } from "../../app/lib/problem.server.ts";
import { singleLineText } from "../../app/lib/schemas.ts";
import { scoreRangeSchema } from "../../app/features/forms/form-schemas.ts";

const issueOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  return result.error.issues[0]!;
};

describe("issueMessage", () => {
  it.each([
    ["a missing value", z.object({ name: z.string() }), {}, { key: "required", params: [] }],
    ["an empty required text", singleLineText(10), " ", { key: "required", params: [] }],
    ["a too long text", singleLineText(10), "x".repeat(11), { key: "tooLong", params: ["10"] }],
    ["a control character", singleLineText(10), "a\u0000", { key: "invalidCharacters", params: [] }],
    ["a number below its minimum", z.number().min(1000), 3, { key: "tooSmall", params: ["1,000"] }],
    ["text for a number", z.number(), "abc", { key: "number", params: [] }],
    ["a bad e-mail address", z.email(), "nope", { key: "email", params: [] }],
    ["a value outside an enum", z.enum(["A", "B"]), "C", { key: "choice", params: [] }],
    ["a too big file", z.file().max(2 * 1024 * 1024), new File([new Uint8Array(3 * 1024 * 1024)], "a.png"), { key: "fileTooBig", params: ["2 MiB"] }],
    ["a common password", newPasswordSchema, "password123", { key: "passwordCommon", params: [] }],
    ["a short password", newPasswordSchema, "short", { key: "tooShort", params: ["8"] }],
    ["a range whose end is below its start", scoreRangeSchema, { min: 5, max: 1, label: "x", color: "#000000" }, { key: "maxBelowMin", params: [] }],
  ])("given %s, should name its dictionary key", (_, schema, value, expected) => {
    expect(issueMessage(issueOf(schema, value))).toEqual(expected);
  });

  it("given a key a schema names, should render it in every language, and the API's message in English", () => {
    const [problem] = fieldProblems(z.object({ age: z.number().max(150, "ageRange") }).safeParse({ age: 200 }).error!.issues);
    expect(problem).toEqual({ path: "age", message: "Enter an age from 0 to 150.", key: { key: "ageRange", params: [] } });
    expect(fieldText(dictionaries.es, problem!.key)).toBe("Escribe una edad entre 0 y 150.");
    expect(fieldText(dictionaries["pt-BR"], problem!.key)).toBe("Informe uma idade de 0 a 150.");
  });
});

describe("pageErrors", () => {
  it("given an error about fields, should place each message by its field in the page's language", () => {
    const error = new ApiError(
      400,
      "VALIDATION_FAILED",
      "The request is not valid.",
      fieldProblems(z.object({ name: z.string().min(1) }).safeParse({ name: "" }).error!.issues),
    );
    expect(pageErrors(dictionaries.es, error)).toEqual({ fieldErrors: { name: "Rellena este campo." }, formError: null });
  });

  it("given a throttled request, should say how many minutes to wait", () => {
    const error = new ApiError(429, "TWO_FACTOR_LOCKED", "Too many wrong codes.", undefined, { "Retry-After": "890" });
    expect(pageErrors(dictionaries["pt-BR"], error)).toEqual({ fieldErrors: {}, formError: "Códigos errados demais. Tente novamente em 15 minutos." });
  });

  it("given a code the dictionaries do not know, should say something went wrong rather than show English", () => {
    expect(problemText(dictionaries.es, "SOMETHING_NEW")).toBe(dictionaries.es.problems.unexpected);
  });
});

/** The UPPER_SNAKE codes the services throw, read from the source. */
function thrownCodes(): Set<string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) files.push(path);
    }
  };
  walk("app");
  const codes = new Set<string>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/new ApiError\(\s*\d{3},\s*"([A-Z_]+)"/g)) codes.add(match[1]!);
    for (const match of source.matchAll(/conflict\([^;]*?,\s*"([A-Z_]+)"\)/g)) codes.add(match[1]!);
  }
  return codes;
}

describe("the problems dictionary", () => {
  it("given every error code a page can meet, should have a sentence for it in every language", () => {
    // Codes only the API answers (a page never sends such a request) need no sentence: no page
    // sends an Idempotency-Key.
    const apiOnly = new Set(["METHOD_NOT_ALLOWED", "UNSUPPORTED_MEDIA_TYPE", "INTERNAL_ERROR", "CONFLICT", "IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_REUSED"]);
    const missing = [...thrownCodes()].filter((code) => !apiOnly.has(code) && !Object.hasOwn(en.problems, code));
    expect(missing).toEqual([]);
    for (const locale of LOCALES) expect(Object.keys(dictionaries[locale].problems)).toEqual(Object.keys(en.problems));
  });
});
