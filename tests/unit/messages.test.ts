import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dictionaries } from "../support/dictionaries.ts";
import type { Dictionary } from "../../app/i18n/dictionaries.ts";
import { serverTranslations, type ServerDictionary } from "../../app/i18n/dictionaries.server.ts";
import { en } from "../../app/i18n/en.ts";
import { es } from "../../app/i18n/es.ts";
import { esServer } from "../../app/i18n/es.server.ts";
import { newPasswordSchema } from "../../app/features/auth/password-policy.server.ts";
import { LOCALES } from "../../app/lib/i18n.ts";
import {
  flaggedResultMail,
  invitationMail,
  passwordResetMail,
  reminderMail,
  signInUnlockMail,
  testLinkMail,
  twoFactorCodeMail,
} from "../../app/lib/mail/messages.server.ts";
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

/** Every key path of a dictionary with the kind of its value, sorted: "mail.passwordReset.subject: string", "pdf.page: function". */
function shapeOf(value: unknown): string[] {
  const paths = (inner: unknown, path: string): string[] =>
    typeof inner === "object" && inner !== null
      ? Object.entries(inner).flatMap(([key, next]) => paths(next, path ? `${path}.${key}` : key))
      : [`${path}: ${typeof inner}`];
  return paths(value, "").sort();
}

describe("the dictionaries", () => {
  it.each(LOCALES)("given %s, should have every key of English's page and server strings, each a string or a function as there", (locale) => {
    expect(shapeOf(dictionaries[locale])).toEqual(shapeOf(en));
    expect(shapeOf(serverTranslations(locale, "SCHOOL"))).toEqual(shapeOf(serverTranslations("en", "SCHOOL")));
  });

  // `npm run typecheck` compiles this file: each `@ts-expect-error` fails it when the line below
  // it compiles, that is when a language could lack a key and ship English (or nothing) instead.
  it("given a language without one of English's page keys, should not compile", () => {
    const { tagline: _, ...app } = es.app;
    // @ts-expect-error: `app.tagline` is missing.
    const incomplete: Dictionary = { ...es, app };
    expect(incomplete.app).not.toHaveProperty("tagline");
  });

  it("given a language without one of English's PDF or e-mail keys, should not compile", () => {
    const { documentTitle: _, ...pdf } = esServer.pdf;
    // @ts-expect-error: `pdf.documentTitle` is missing.
    const withoutTitle: ServerDictionary = { ...esServer, pdf };
    expect(withoutTitle.pdf).not.toHaveProperty("documentTitle");

    const { action: __, ...invitation } = esServer.mail.invitation;
    // @ts-expect-error: `mail.invitation.action` is missing.
    const withoutAction: ServerDictionary = { ...esServer, mail: { ...esServer.mail, invitation } };
    expect(withoutAction.mail.invitation).not.toHaveProperty("action");

    const { TEXT: ___, ...questionTypes } = esServer.pdf.questionTypes;
    // @ts-expect-error: a question type without its name.
    const withoutType: ServerDictionary = { ...esServer, pdf: { ...esServer.pdf, questionTypes } };
    expect(withoutType.pdf.questionTypes).not.toHaveProperty("TEXT");
  });

  it("given a language with a key English lacks, should not compile", () => {
    // @ts-expect-error: `mail.farewell` is not a key of English.
    const extra: ServerDictionary = { ...esServer, mail: { ...esServer.mail, farewell: "Adiós" } };
    expect(extra.mail).toHaveProperty("farewell");
  });
});

describe("the e-mails", () => {
  const url = "https://assess.example/x";
  it.each(LOCALES)("given a recipient whose language is %s, should write every e-mail from that language's mail strings", (locale) => {
    const t = serverTranslations(locale, "SCHOOL").mail;
    expect(twoFactorCodeMail(locale, "SCHOOL", "Ana", "123456").subject).toBe(t.signInCode.subject("123456"));
    expect(passwordResetMail(locale, "SCHOOL", "Ana", url).text).toContain(`${t.passwordReset.action}: ${url}`);
    expect(signInUnlockMail(locale, "SCHOOL", "Ana", url).subject).toBe(t.signInUnlock.subject);
    expect(invitationMail(locale, "SCHOOL", "Ana", "Escola Sol", url).text).toContain(t.invitation.body("Ana", "Escola Sol")[1]!);
    expect(testLinkMail(locale, "SCHOOL", "Ana", "Escola Sol", "PHQ-9", null, url).text).toContain(t.testLink.body("Ana", "Escola Sol", "PHQ-9", null)[2]!);
    expect(reminderMail(locale, "SCHOOL", "Ana", "Escola Sol", "PHQ-9", "1 May 2026", url).subject).toBe(t.reminder.subject("PHQ-9"));
    const flagged = flaggedResultMail(locale, "SCHOOL", "Marta", "Ana", "PHQ-9", "1 May 2026, 10:30", url);
    expect(flagged.subject).toBe(t.flaggedResult.subject("PHQ-9"));
    expect(flagged.text).toContain(t.flaggedResult.body("Marta", "Ana", "PHQ-9", "1 May 2026, 10:30")[1]!);
    expect(flagged.text).toContain(`${t.flaggedResult.action}: ${url}`);
  });

  it("given a stored language that is not one of ours, should write in English", () => {
    expect(passwordResetMail("fr", "SCHOOL", "Ana", url).subject).toBe("Choose a new password");
  });

  it("given a name with markup, should escape it in the HTML and keep it in the text", () => {
    const mail = invitationMail("es", "SCHOOL", "<b>Ana</b>", "Escola & Sol", url);
    expect(mail.html).toContain("Hola, &lt;b&gt;Ana&lt;/b&gt;:");
    expect(mail.html).toContain("Escola &amp; Sol");
    expect(mail.text).toContain("Hola, <b>Ana</b>:");
  });
});
