import { z } from "zod";
import { emailSchema, idSchema, optionalText, paginationQuery, searchParam, singleLineText, timestamp } from "~/lib/schemas.ts";

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
  updatedAt: timestamp,
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
} as const;
