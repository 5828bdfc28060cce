import { describe, expect, it } from "vitest";
import { serverTranslations } from "../../app/i18n/dictionaries.server.ts";
import { translations } from "../../app/i18n/dictionaries.ts";
import { type ClinicWords, enClinic } from "../../app/i18n/en.ts";
import { esClinic } from "../../app/i18n/es.ts";
import { LOCALES } from "../../app/lib/i18n.ts";
import { schoolWordsIn } from "../support/school-words.ts";

/**
 * A clinic's dictionaries (ADR 81): the school's with the keys that say a school word said again.
 * Every sentence, functions called with placeholders, in every language.
 */
function sentences(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (typeof value === "function") {
    const written = (value as (...args: string[]) => unknown)("X", "Y", "Z", "W");
    return [[path, Array.isArray(written) ? written.join(" ") : String(written)]];
  }
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, inner]) => sentences(inner, path ? `${path}.${key}` : key));
  return [];
}

const saying = (dictionary: unknown, locale: (typeof LOCALES)[number]) =>
  sentences(dictionary).flatMap(([path, text]) => schoolWordsIn(text, locale).map((words) => `${path}: ${words}`));

describe("a clinic's words", () => {
  it.each(LOCALES)("given %s, should say no school word in any page, PDF or e-mail sentence", (locale) => {
    expect(saying(translations(locale, "CLINIC"), locale)).toEqual([]);
    expect(saying(serverTranslations(locale, "CLINIC"), locale)).toEqual([]);
  });

  it.each(LOCALES)("given %s, should differ from a school's only in the keys the clinic says again", (locale) => {
    const overridden = new Set(sentences(enClinic).map(([path]) => path));
    const school = new Map(sentences(translations(locale, "SCHOOL")));
    const changed = sentences(translations(locale, "CLINIC")).filter(([path, text]) => school.get(path) !== text);
    expect(changed.map(([path]) => path).filter((path) => !overridden.has(path))).toEqual([]);
    expect(changed.length).toBe(overridden.size);
  });

  // `npm run typecheck` compiles this file: each `@ts-expect-error` fails it when the line below
  // compiles, that is when a language could leave one of a clinic's words out, or say one more.
  it("given a language's clinic words without one of English's, or with one English lacks, should not compile", () => {
    const { promote: _, ...candidates } = esClinic.candidates;
    // @ts-expect-error: `candidates.promote` is missing.
    const without: ClinicWords = { ...esClinic, candidates };
    // @ts-expect-error: `nav.home` says no school word, so a clinic does not say it again.
    const extra: ClinicWords = { ...esClinic, nav: { ...esClinic.nav, home: "Inicio" } };
    expect([without.candidates, extra.nav]).toHaveLength(2);
  });

  it("given a school, should keep its own words", () => {
    expect(translations("en", "SCHOOL").nav.students).toBe("Students");
    expect(translations("en", "CLINIC").nav.students).toBe("Patients");
    expect(translations("pt-BR", "CLINIC").user.roles.TEACHER).toBe("Clínico");
    expect(serverTranslations("es", "CLINIC").pdf.kinds).toEqual({ student: "Paciente", candidate: "Candidato" });
  });
});
