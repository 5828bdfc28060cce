import { z } from "zod";
import type { FieldMessageKey } from "./messages.ts";

/**
 * Building blocks shared by every input and output schema. These schemas validate requests in the
 * API and in the pages (through Conform) and are rendered into the OpenAPI document, so each
 * carries the description a reader of that document needs.
 */

export const pageParam = z.coerce.number().int().min(1).max(1_000_000).default(1).meta({ description: "Page number, from 1." });

export const limitParam = z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Items per page, 1 to 100." });

export const paginationQuery = { page: pageParam, limit: limitParam };

/** `true`/`false`/`1`/`0` in any case; anything else is a 400, never silently false. */
export const booleanParam = z
  .string()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0"]))
  .transform((value) => value === "true" || value === "1")
  .meta({ description: "true, false, 1 or 0." });

/**
 * Control characters (NUL, escape, ...) are never part of a name or a search: refused with a 400
 * rather than handed to the database (SQLite's full-text search fails on NUL). Text that may
 * span lines keeps its tabs and line breaks.
 */
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
/** The dictionary key of the message (app/lib/messages.ts). */
const CONTROL_CHARACTERS_MESSAGE = "invalidCharacters";

/**
 * What a required field that is not there is told: `key`, as when it is empty. A page form's empty
 * field reaches the schema as missing (Conform leaves it out, as a JSON body leaves it out), so the
 * page says "Enter your password", not a bare "Fill this in". `z.string(missingAs("passwordRequired"))`.
 */
export const missingAs = (key: FieldMessageKey) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined ? key : undefined) });

/** Required text on one line (a name, a title); `required` is what an empty or missing one is told. */
export const singleLineText = (max: number, required: FieldMessageKey = "required") =>
  z
    // Only the missing value is told `required` here; the checks below keep their own messages.
    .string({ error: (issue) => (issue.code === "invalid_type" ? required : undefined) })
    .trim()
    .min(1, required)
    .max(max)
    .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_MESSAGE);

/** Text as typed, which may hold line breaks (an answer). */
export const typedText = (max: number) => z.string().max(max).regex(NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS, CONTROL_CHARACTERS_MESSAGE);

/** Required text that may hold line breaks (a question). */
export const multiLineText = (max: number) => typedText(max).trim().min(1);

export const searchParam = z
  .string()
  .trim()
  .max(200)
  .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_MESSAGE)
  .optional()
  .meta({ description: "Case- and accent-insensitive substring match." });

/**
 * `from`/`to` filters take a date (`2026-03-01`) or a date-time; a date-only `to` covers that whole
 * day (date-range.server.ts). Checked in the service so the error can name the field.
 */
export const dateParam = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, "Use an ISO 8601 date or date-time.")
  .optional();

export const timestamp = z.iso.datetime().meta({ description: "ISO 8601 UTC with milliseconds." });

/**
 * Every row this version creates gets a CUID (app/lib/ids.server.ts, Prisma's `cuid()`), ADR 55.
 * No pattern is enforced on input: ids of rows made by earlier versions keep their format.
 */
const ID_FORMAT =
  "A CUID: `c` and 24 lowercase letters and digits, 25 characters (`cmf3k9x2a0001qz8h4b7c2d1e`); every new record gets one. " +
  "Treat it as an opaque string: records created before this version may have a CUID2 (24 lowercase letters and digits) or a UUID.";

export const idSchema = z.string().meta({ description: ID_FORMAT });

/** An id that says what it names as well (`The submission's id.`). */
export const idNaming = (what: string) => z.string().meta({ description: `${ID_FORMAT} ${what}` });

/** Optional free text: trimmed, and an empty string means "none" (null). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS, CONTROL_CHARACTERS_MESSAGE)
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional();

/** Optional text on one line (an identifier): trimmed, and an empty string means "none" (null). */
export const optionalLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_MESSAGE)
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional();

export const emailSchema = z
  .email()
  .max(254)
  .transform((value) => value.toLowerCase());

export const pagedResponse = <T extends z.ZodType>(key: string, item: T) =>
  z.object({ [key]: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

/** `updatedSince`: an instant with its offset or Z; anything else is a 400 naming the parameter. */
export const updatedSinceParam = z.iso
  .datetime({ offset: true, error: "dateTime" })
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), "dateTime")
  .optional()
  .meta({
    description:
      "ISO 8601 date-time with its offset or Z. Only the items changed at or after it, oldest change first (ties by id), and the deletions since then as items `{id, updatedAt, deletedAt}`. To read on, ask again from the last item's updatedAt (it comes again, with any other change of that moment), or for the next page.",
    examples: ["2026-03-14T09:30:00.000Z"],
  });

/** A listed item's `deletedAt`: always null, as a deleted item is never listed as it was. */
export const notDeleted = z.null().meta({ description: "Always null: a deleted item is listed only with updatedSince, as a DeletedItem." });

/** A deletion in a list read with `updatedSince` (docs/api-contract.md §23, ADR 52): the item's id and when it was deleted. */
export const deletedItem = z
  .object({
    id: idSchema,
    updatedAt: timestamp.meta({ description: "When it was deleted (the same as deletedAt): where the next read may start." }),
    deletedAt: timestamp,
  })
  .meta({ id: "DeletedItem", description: "An item deleted (or no longer readable by the caller) since updatedSince; only with updatedSince." });

/** A list that `updatedSince` can ask for changes: its items, and with it the deletions too. */
export const changesResponse = <T extends z.ZodType>(key: string, item: T) => pagedResponse(key, z.union([item, deletedItem]));

/** `{"ok": true}`. */
export const okResponse = z.object({ ok: z.literal(true) });

export const deletedResponse = z.object({ id: idSchema, deletedAt: timestamp });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().meta({ description: "Stable UPPER_SNAKE identifier, e.g. VALIDATION_FAILED." }),
    errors: z
      .array(
        z.object({
          path: z.string(),
          message: z.string(),
          row: z.number().int().optional().meta({ description: "An imported file's line (the header is line 1)." }),
          field: z.string().optional().meta({ description: "An imported file's column." }),
        }),
      )
      .optional(),
    url: z.string().optional().meta({
      description: "Sign-in and sign-out called by NextAuth's browser client (a form body with json=true): the page to go to, with ?error=CODE.",
    }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details." });

/** Pages and offsets for a list query. */
export const skipTake = ({ page, limit }: { page: number; limit: number }) => ({
  skip: (page - 1) * limit,
  take: limit,
});

/** When something stops working (a link, a token): an instant, or a day meaning its end in the organization's time zone. */
export const expiryInput = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "date" })
  .meta({ description: "ISO 8601 date-time, or a date (2026-12-01) meaning the end of that day in the organization's time zone." });
