import type { Locale } from "../../app/lib/i18n.ts";

/**
 * The words a clinic's pages, e-mails and PDFs must not say (docs/api-contract.md §18, ADR 81), per
 * language, matched as whole words whatever their case: a school's words for the people assessed,
 * their classes and grades, the school and its teachers.
 */
const SCHOOL_WORDS: Record<Locale, readonly string[]> = {
  en: ["student", "students", "pupil", "pupils", "class", "classes", "grade", "grades", "school", "schools", "teacher", "teachers"],
  es: [
    "estudiante",
    "estudiantes",
    "alumno",
    "alumnos",
    "alumna",
    "alumnas",
    "clase",
    "clases",
    "curso",
    "cursos",
    "escuela",
    "escuelas",
    "profesor",
    "profesores",
    "profesora",
    "profesoras",
  ],
  "pt-BR": [
    "aluno",
    "alunos",
    "aluna",
    "alunas",
    "estudante",
    "estudantes",
    "turma",
    "turmas",
    "série",
    "séries",
    "escola",
    "escolas",
    "professor",
    "professores",
    "professora",
    "professoras",
  ],
};

/**
 * Fixed phrases in which a listed word is not a school's: Spanish "en curso" is "in progress" (a
 * link's status), not a school year; "Harvard Medical School" holds the K10's copyright, which its
 * licence names in every language.
 */
const NOT_SCHOOL: RegExp = /(?<![\p{L}\p{N}])(?:en curso|Harvard Medical School)(?![\p{L}\p{N}])/giu;

const patterns = Object.fromEntries(
  Object.entries(SCHOOL_WORDS).map(([locale, words]) => [locale, new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])`, "giu")]),
) as Record<Locale, RegExp>;

/** The school words `text` says in `locale`, each with the text around it, so a failure shows where. */
export function schoolWordsIn(text: string, locale: Locale): string[] {
  const plain = text.replace(NOT_SCHOOL, " ");
  return [...plain.matchAll(patterns[locale])].map((match) =>
    plain.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40).replace(/\s+/g, " "),
  );
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * What a person reads of a page: its text (the title included) and the attributes a screen reader
 * or a pointer shows (aria-label, title, placeholder, alt), without its scripts, styles or markup.
 * Addresses and values a form posts (`/en/students`, `intent=promote`) are not read.
 */
export function readableText(html: string): string {
  const attributes = [...html.matchAll(/\s(?:aria-label|aria-description|title|placeholder|alt)="([^"]*)"/g)].map((match) => match[1]);
  const text = html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]+>/g, " ");
  return [text, ...attributes]
    .join("\n")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) =>
      name.startsWith("#x")
        ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
        : name.startsWith("#")
          ? String.fromCodePoint(Number(name.slice(1)))
          : (ENTITIES[name.toLowerCase()] ?? entity),
    );
}
