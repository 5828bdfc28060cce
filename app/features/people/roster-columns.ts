/**
 * The columns a roster file may have, and the header names each is known by in English, Spanish
 * and Portuguese (docs/api-contract.md §23). Headers are compared without case, accents, spaces or
 * punctuation, so `E-mail`, `e_mail` and `EMAIL` are all `email`, and `Matrícula` is `matricula`.
 * Kept apart from the import's service: the import page lists them too.
 */
export const ROSTER_HEADERS = {
  name: ["name", "full name", "nombre", "nombre completo", "nome", "nome completo"],
  email: ["email", "e-mail", "mail", "correo", "correo electrónico", "endereço de e-mail"],
  externalId: [
    "externalId",
    "external id",
    "id",
    "matrícula",
    "número de matrícula",
    "id externo",
    // A clinic's (ADR 81): its record number.
    "record number",
    "mrn",
    "expediente",
    "número de expediente",
    "historia clínica",
    "prontuário",
    "número do prontuário",
    "número de registro",
  ],
  dateOfBirth: ["dateOfBirth", "date of birth", "birth date", "birthdate", "dob", "fecha de nacimiento", "nacimiento", "data de nascimento", "nascimento"],
  phone: ["phone", "telephone", "teléfono", "telefone", "celular"],
  age: ["age", "edad", "idade"],
  // A clinic calls the same field its service (ADR 81).
  grade: ["grade", "year", "grado", "curso", "año", "série", "ano", "service", "programme", "program", "servicio", "programa", "serviço"],
  gender: ["gender", "sex", "género", "gênero", "sexo"],
  status: ["status", "estado", "situación", "situação"],
  group: ["group", "class", "grupo", "clase", "turma", "classe"],
} as const satisfies Record<string, readonly string[]>;

export type RosterColumn = keyof typeof ROSTER_HEADERS;

/** The columns that are a person's profile (all but `group`), in the order an exported file has them. */
export const PROFILE_COLUMNS = ["name", "email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender", "status"] as const satisfies readonly Exclude<
  RosterColumn,
  "group"
>[];

/** `create` adds every row; `upsert` updates the people the rows match and adds the others. */
export const IMPORT_MODES = ["create", "upsert"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** What an import does (or, in a dry run, would do) with a row. */
export type RosterAction = "created" | "updated" | "unchanged";

/** How the file's bytes were read. */
export type RosterEncoding = "utf-8" | "windows-1252";

/** The text of a file and how its bytes were read. */
export type RosterSource = { text: string; encoding: RosterEncoding };

/**
 * The bytes of an uploaded file as text: UTF-8 when they are valid UTF-8 (a byte order mark is
 * dropped), otherwise Windows-1252, the encoding that spreadsheets on Windows save "CSV" in for
 * these languages (ISO-8859-1 files read the same, but for the rare C1 control codes).
 */
export function decodeRoster(bytes: Uint8Array): RosterSource {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  }
}
