import { z } from "zod";
import {
  booleanParam,
  emailSchema,
  idSchema,
  notDeleted,
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
  phone: optionalText(50),
  age: z.number("ageRange").int("ageRange").min(0, "ageRange").max(150, "ageRange").nullable().optional(),
  grade: optionalText(50),
  gender: optionalText(50),
};

export const personListQuery = <S extends readonly [string, ...string[]]>(statuses: S) =>
  z.strictObject({
    ...paginationQuery,
    search: searchParam,
    status: z.enum(statuses).optional(),
    groupId: idSchema.optional().meta({ description: "Only the members of this group." }),
    updatedSince: updatedSinceParam,
  });

export const personFields = {
  id: idSchema,
  name: z.string(),
  email: z.string().nullable(),
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
  })
  .meta({ id: "HistoryItem" });

export const personSelect = {
  id: true,
  name: true,
  email: true,
  phone: true,
  age: true,
  grade: true,
  gender: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} as const;

/** POST /api/students/import and /api/candidates/import (contract §11). */
export const importQuery = z.strictObject({ dryRun: booleanParam.optional().meta({ description: "true: check the file and write nothing." }) });

const importProblem = z.object({
  row: z.number().int().meta({ description: "The file's line; the header is line 1." }),
  field: z.string(),
  message: z.string(),
});

export const importPreview = z
  .object({ rows: z.number().int(), valid: z.number().int(), errors: z.array(importProblem) })
  .meta({ id: "ImportPreview", description: "A dry run: the rows under the header, how many would be imported, and every problem." });

export const importResult = z.object({ created: z.number().int(), groupsCreated: z.number().int() }).meta({ id: "ImportResult" });

/** The body of an import: a CSV file, described for the OpenAPI document. */
export const importFileBody = z
  .object({
    file: z.string().meta({
      format: "binary",
      description: "The CSV file (UTF-8; comma or semicolon separated; header row).",
      examples: ["name,email,age,group\nAna Lima,ana.lima@school.example,11,5B\n"],
    }),
  })
  .meta({ id: "RosterFile" });
