import { z } from "zod";
import { IMPORT_MODES } from "./roster-columns.ts";
import { change } from "../scoring/scale-schemas.ts";
import {
  booleanParam,
  emailSchema,
  idSchema,
  notDeleted,
  optionalLine,
  optionalText,
  paginationQuery,
  searchParam,
  singleLineText,
  timestamp,
  updatedSinceParam,
} from "~/lib/schemas.ts";

/**
 * Students and candidates carry the same profile. Each field is optional in updates; an empty
 * string clears a text field.
 */
export const personProfileFields = {
  name: singleLineText(200, "nameRequired"),
  email: z
    .string()
    .trim()
    .transform((value) => (value === "" ? null : value.toLowerCase()))
    .pipe(emailSchema.nullable())
    .nullable()
    .optional(),
  externalId: optionalLine(100).meta({
    description:
      "The person's record number in another system (a school's information system, a clinic's records), unique within the organization; roster imports with mode=upsert match on it, and the lists' `search` finds it by its start. Empty or null: none.",
  }),
  // A real calendar day (2014-03-09, not 2014-02-30); an empty string, as a form posts it, is none.
  dateOfBirth: z
    .string({ error: "dateOfBirth" })
    .trim()
    .transform((value) => (value === "" ? null : value))
    .pipe(z.iso.date({ error: "dateOfBirth" }).nullable())
    .nullable()
    .optional()
    .meta({ description: "A calendar day, YYYY-MM-DD, not later than today in the organization's time zone. Empty or null: none." }),
  phone: optionalText(50),
  age: z.number("ageRange").int("ageRange").min(0, "ageRange").max(150, "ageRange").nullable().optional(),
  grade: optionalText(50),
  gender: optionalText(50),
};

export const personListQuery = <S extends readonly [string, ...string[]]>(statuses: S) =>
  z.strictObject({
    ...paginationQuery,
    search: searchParam.meta({
      description: "Case- and accent-insensitive substring of the name, or the start of the record number (externalId), ignoring case: `S-10` finds S-1042.",
    }),
    status: z.enum(statuses).optional(),
    groupId: idSchema.optional().meta({ description: "Only the members of this group." }),
    updatedSince: updatedSinceParam,
  });

export const personFields = {
  id: idSchema,
  name: z.string(),
  email: z.string().nullable(),
  externalId: z.string().nullable().meta({ description: "The person's record number in another system, unique within the organization." }),
  dateOfBirth: z.iso.date().nullable().meta({ description: "A calendar day, YYYY-MM-DD." }),
  phone: z.string().nullable(),
  age: z.number().int().nullable(),
  grade: z.string().nullable(),
  gender: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp.meta({ description: "When the record last changed: its fields, or the groups it is in." }),
  deletedAt: notDeleted,
};

export const historyItem = z
  .object({
    id: idSchema,
    form: z.object({ id: idSchema, title: z.string() }),
    isCompleted: z.boolean(),
    completedAt: timestamp.nullable(),
    totalScore: z.number().nullable(),
    maxScore: z.number().nullable(),
    percentage: z.number().nullable(),
    scoreLabel: z.string().nullable(),
    scoreColor: z.string().nullable(),
    createdAt: timestamp,
    change: change.nullable().meta({
      description: "A completed result's change over time within the person's results on its form (docs/api-contract.md §18); null until completed.",
    }),
    subscales: z
      .array(
        z.object({
          key: z.string(),
          name: z.string(),
          score: z.number().nullable().meta({ description: "As captured at completion; null when too many of its items were unanswered." }),
          maxScore: z.number(),
          change: change.meta({ description: "The subscale's change, made as the total's with the subscale's own constants." }),
        }),
      )
      .meta({ description: "A completed result's subscales, each with its change; empty for a form without subscales and until completed." }),
  })
  .meta({ id: "HistoryItem" });

export const personSelect = {
  id: true,
  name: true,
  email: true,
  externalId: true,
  dateOfBirth: true,
  phone: true,
  age: true,
  grade: true,
  gender: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} as const;

/** GET /api/students/export and /api/candidates/export: the list's filters, every page at once. */
export const rosterExportQuery = <S extends readonly [string, ...string[]]>(statuses: S) =>
  personListQuery(statuses).pick({ search: true, status: true, groupId: true });

/** POST /api/students/import and /api/candidates/import (docs/api-contract.md §11, §23). */
export const importQuery = z.strictObject({
  dryRun: booleanParam.optional().meta({ description: "true: check the file and write nothing." }),
  mode: z.enum(IMPORT_MODES).default("create").meta({
    description:
      "create (the default): every row is a new person; an e-mail address or external id already used is a row error. upsert: a row matching a person on externalId, else on email, updates that person with the file's columns; the others are created.",
  }),
});

const importProblem = z.object({
  row: z.number().int().meta({ description: "The file's line; the header is line 1." }),
  field: z.string(),
  message: z.string(),
});

const encoding = z
  .enum(["utf-8", "windows-1252"])
  .meta({ description: "How the file was read: UTF-8 (with or without a byte order mark), or Windows-1252 when it is not valid UTF-8." });

const counts = {
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  groupsCreated: z.number().int().meta({ description: "Groups the file names that did not exist." }),
};

const rowAction = z.enum(["created", "updated", "unchanged"]);

export const importPreview = z
  .object({ rows: z.number().int(), valid: z.number().int(), errors: z.array(importProblem), encoding })
  .meta({ id: "ImportPreview", description: "A dry run (mode=create): the rows under the header, how many would be imported, and every problem." });

export const upsertPreview = z
  .object({
    ...counts,
    rows: z
      .array(
        z.object({
          row: z.number().int().meta({ description: "The file's line; the header is line 1." }),
          id: idSchema.optional().meta({ description: "The person the row matched; none for a new one." }),
          action: rowAction,
        }),
      )
      .meta({ description: "What each row without a problem would do." }),
    valid: z.number().int(),
    errors: z.array(importProblem),
    encoding,
  })
  .meta({ id: "UpsertPreview", description: "A dry run (mode=upsert): what each row would do, the counts, and every problem." });

export const importResult = z
  .object({ created: z.number().int(), groupsCreated: z.number().int(), encoding })
  .meta({ id: "ImportResult", description: "mode=create: how many people and groups were created." });

export const upsertResult = z
  .object({ ...counts, rows: z.array(z.object({ row: z.number().int(), id: idSchema, action: rowAction })), encoding })
  .meta({ id: "UpsertResult", description: "mode=upsert: what each row did, to which person." });

/** The body of an import: a CSV file, described for the OpenAPI document. */
export const importFileBody = z
  .object({
    file: z.string().meta({
      format: "binary",
      description: "The CSV file: a header row (names in English, Spanish or Portuguese), comma or semicolon separated, UTF-8 (else read as Windows-1252).",
      examples: ["name,email,externalId,dateOfBirth,age,group\nAna Lima,ana.lima@school.example,S-1042,2014-03-09,11,5B\n"],
    }),
  })
  .meta({ id: "RosterFile" });
