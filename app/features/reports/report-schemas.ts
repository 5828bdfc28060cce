import { z } from "zod";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { acknowledgementFields, flaggedParam } from "../flags/flag-schemas.ts";
import { band, change, scaleResultFields, subscaleResult } from "../scoring/scale-schemas.ts";
import { SCORE_DISPLAYS } from "../scoring/score-display.ts";
import { changesResponse, dateParam, idNaming, idSchema, notDeleted, paginationQuery, searchParam, timestamp, updatedSinceParam } from "~/lib/schemas.ts";

const reportFilters = {
  search: searchParam.meta({ description: "Respondent name or form title; case- and accent-insensitive." }),
  from: dateParam.meta({ description: "Completed at or after (ISO 8601 date or date-time)." }),
  to: dateParam.meta({ description: "Completed at or before; a date covers that whole day." }),
  formId: idSchema.optional().meta({ description: "Only the results of this form." }),
  groupId: idSchema.optional().meta({ description: "Only the results of this group's members (as the group is now); a group not in the organization is 404." }),
  flagged: flaggedParam,
};

export const listReportsQuery = z.strictObject({ ...paginationQuery, ...reportFilters, updatedSince: updatedSinceParam });
export type ListReportsQuery = z.output<typeof listReportsQuery>;

/**
 * The list query's fields that select no reports: `page` and `limit` choose a slice of the same
 * rows (the list has one order, newest first, and no sort parameter), and `updatedSince` turns the
 * list into its changes (listReportChanges, whose total is counted every time). Every other field
 * of the query is a filter: a field added to the query is one unless it is named here, and the
 * totals (report-totals-cache.ts, docs/decisions/0056-totals-from-every-filter.md) do not compile
 * until they are told what it does to a total.
 */
export const NOT_REPORT_FILTERS = ["page", "limit", "updatedSince"] as const satisfies readonly (keyof ListReportsQuery)[];

/** What selects reports, without a page: the list's filters, which the exports share. */
export type ReportFilters = Omit<ListReportsQuery, (typeof NOT_REPORT_FILTERS)[number]>;

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;

export const exportReportsQuery = z
  .strictObject({
    ...reportFilters,
    format: z.enum(EXPORT_FORMATS).meta({
      description: "csv: UTF-8 with a BOM, RFC 4180; xlsx: one worksheet, its date cells in the organization's local time.",
    }),
    delimiter: z.enum(["comma", "semicolon"]).default("comma").meta({
      description:
        "CSV only: comma with decimal points, or semicolon with decimal commas (`4,5`), what Excel expects where the decimal separator is a comma (es, pt-BR).",
    }),
  })
  .meta({ id: "ReportsExportQuery" });
export type ExportReportsQuery = z.output<typeof exportReportsQuery>;

export const scoreRangeOutput = band;

export const reportItem = z
  .object({
    id: idNaming("The submission's id."),
    studentName: z.string().meta({ description: "The respondent's name (student or candidate)." }),
    formTitle: z.string(),
    completedAt: timestamp,
    totalScore: z.number().nullable().meta({ description: "null when more items are missing than the form allows (`scoring.maxMissing`)." }),
    maxScore: z.number(),
    percentage: z.number().nullable().meta({ description: "null when the total is." }),
    scoreLabel: z.string().nullable(),
    scoreColor: z.string().nullable(),
    ...scaleResultFields,
    ...acknowledgementFields,
    assignedByName: z.string(),
  })
  .meta({ id: "ReportItem" });

/** How the total is shown, as captured with the result (§15 `scoring.display`, ADR 79). */
const display = z.enum(SCORE_DISPLAYS).meta({
  description: "How the total is shown, as the form's `scoring.display` was when the result was completed: RAW (score / max) or PERCENT.",
});

export const reportListItem = reportItem
  .extend({
    display,
    updatedAt: timestamp.meta({
      description: "When the result last changed: completed, or its respondent renamed or promoted (the name it shows).",
    }),
    deletedAt: notDeleted,
  })
  .meta({ id: "ReportListItem" });

export const reportListResponse = changesResponse("reports", reportListItem);

export const reportAnswer = z.object({
  questionId: idNaming("The question as it was answered; kept if the question is later removed."),
  questionText: z.string(),
  type: z.enum(QUESTION_TYPES),
  optionTexts: z.array(z.string()),
  text: z.string().nullable(),
  score: z.number(),
  maxScore: z.number(),
});

export const reportDetail = reportItem
  .extend({
    display,
    form: z.object({ id: idSchema, title: z.string(), category: z.string().nullable(), type: z.string().nullable() }),
    respondent: z.object({
      kind: z.enum(["student", "candidate"]),
      id: idSchema,
      name: z.string(),
      externalId: z.string().nullable().meta({ description: "The person's record number, as it is now." }),
      dateOfBirth: z.iso.date().nullable().meta({ description: "The person's date of birth, as it is now." }),
      grade: z.string().nullable(),
      age: z.number().int().nullable(),
    }),
    assignedBy: z.object({ id: idSchema, name: z.string() }),
    organization: z.object({ id: idSchema, name: z.string() }),
    assignedAt: timestamp,
    scoreRanges: z.array(scoreRangeOutput),
    answers: z.array(reportAnswer),
    change: change.meta({
      description: "How this result compares with the respondent's earlier results on the form that the caller may see (docs/api-contract.md §18).",
    }),
    isBaseline: z.boolean().meta({
      description: "Whether this is the respondent's first result on the form among those the caller may see: the baseline the later ones are compared with.",
    }),
    subscales: z
      .array(subscaleResult.extend({ change }))
      .meta({ description: "Each subscale's result as captured at completion, with its change over time; empty for a form without subscales." }),
  })
  .meta({ id: "ReportDetail" });

type ReportDetailOutput = z.output<typeof reportDetail>;

export type ReportDetail = Omit<
  ReportDetailOutput,
  "completedAt" | "assignedAt" | "flaggedAt" | "acknowledgedAt" | "scoreRanges" | "change" | "isBaseline" | "subscales"
> & {
  completedAt: Date;
  assignedAt: Date;
  flaggedAt: Date | null;
  acknowledgedAt: Date | null;
  /** A band's `critical` is false when left out. */
  scoreRanges: z.input<typeof band>[];
  /** Absent from a report made by hand (the PDF's samples): the PDF then prints no change. */
  change?: ReportDetailOutput["change"];
  isBaseline?: boolean;
  subscales: (Omit<ReportDetailOutput["subscales"][number], "change"> & { change?: ReportDetailOutput["change"] })[];
};

export const exportReportBody = z.strictObject({ submissionId: idSchema }).meta({ id: "ReportExport" });
