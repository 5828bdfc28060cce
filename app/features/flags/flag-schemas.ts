import { z } from "zod";
import { rawDate } from "~/lib/raw-values.ts";
import { idNaming, idSchema, optionalText, timestamp } from "~/lib/schemas.ts";
import { ACKNOWLEDGEMENT_NOTE_MAX, FLAGGED_FILTERS } from "./flag-filters.ts";

/**
 * Critical answers (docs/api-contract.md §16, ADR 71): the acknowledgement's input, used by
 * POST /api/submissions/:id/acknowledge and the report page's form, and the fields every result
 * carries about it.
 */

const NOTE_EXAMPLE = "Spoke with her and her parents; follow-up booked for Monday.";

export const acknowledgeBody = z
  .strictObject({
    note: optionalText(ACKNOWLEDGEMENT_NOTE_MAX).meta({
      description: `What was done about it, up to ${ACKNOWLEDGEMENT_NOTE_MAX.toLocaleString("en-US")} characters; empty or left out: none.`,
      examples: [NOTE_EXAMPLE],
    }),
  })
  .meta({ id: "Acknowledge" });
export type AcknowledgeInput = z.output<typeof acknowledgeBody>;

const acknowledgedBy = z.object({ id: idSchema, name: z.string() });

/** Who acknowledged a flagged result, when, and what they noted; null until someone does (and always for a result without a flag). */
export const acknowledgementFields = {
  acknowledgedAt: timestamp.nullable().meta({ description: "When someone who can read the result acknowledged its flags; null until then." }),
  acknowledgedBy: acknowledgedBy.nullable().meta({ description: "Who acknowledged it; null until someone does." }),
  acknowledgementNote: z
    .string()
    .nullable()
    .meta({ description: "The note given with the acknowledgement, if any.", examples: [NOTE_EXAMPLE] }),
};

export const acknowledgementResponse = z
  .object({ submissionId: idNaming("The submission's id."), ...acknowledgementFields, acknowledgedAt: timestamp, acknowledgedBy })
  .meta({ id: "Acknowledgement" });

/** The reports' filter (a query parameter). */
export const flaggedParam = z
  .enum(FLAGGED_FILTERS)
  .optional()
  .meta({ description: "`true`: only results with a flag (docs/api-contract.md §16); `unacknowledged`: only flagged results nobody has acknowledged yet." });

/** A result's acknowledgement as the API answers it, from the ORM or a raw query (where SQLite gives a date as text or a number). */
export function readAcknowledgement(row: { acknowledgedAt: unknown; acknowledgedBy: { id: string; name: string } | null; acknowledgementNote: string | null }) {
  const acknowledgedAt = rawDate(row.acknowledgedAt);
  return {
    acknowledgedAt,
    acknowledgedBy: acknowledgedAt && row.acknowledgedBy ? { id: row.acknowledgedBy.id, name: row.acknowledgedBy.name } : null,
    acknowledgementNote: acknowledgedAt ? row.acknowledgementNote : null,
  };
}
