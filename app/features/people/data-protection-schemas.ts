import { z } from "zod";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { scaleResultFields } from "../scoring/scale-schemas.ts";
import { idSchema, singleLineText, timestamp } from "~/lib/schemas.ts";
import { ERASURE_MODES } from "./erasure-modes.ts";
import { submissionItem } from "../submissions/submission-schemas.ts";
import { personFields } from "./person-schemas.ts";

/**
 * The data protection endpoints' shapes (docs/api-contract.md §21, ADR 88): what erasing a person
 * takes and answers, and the subject access document.
 */

/** POST /api/students/:id/erase and /api/candidates/:id/erase, and the erasure page's form. */
export const eraseBody = z
  .strictObject({
    mode: z.enum(ERASURE_MODES, "choice").meta({
      description:
        "ANONYMISE: every identifying field and free-text answer is replaced, the scores stay for statistics and the record leaves the lists. " +
        "DELETE: the person, their results, answers and saved drafts are removed. Both are irreversible.",
    }),
    confirm: singleLineText(200, "confirmName").meta({ description: "The person's name as it is stored: anything else is refused (400 naming `confirm`)." }),
  })
  .meta({ id: "PersonErasure" });
export type EraseInput = z.output<typeof eraseBody>;

export const erasureResponse = z
  .object({
    id: idSchema,
    kind: z.enum(["student", "candidate"]),
    mode: z.enum(ERASURE_MODES),
    erasedAt: timestamp,
    submissions: z.number().int().meta({ description: "The person's submissions anonymised or removed." }),
    answers: z.number().int().meta({ description: "Their answers: free text replaced (ANONYMISE) or removed (DELETE)." }),
    drafts: z.number().int().meta({ description: "Answers saved but not sent, removed in both modes." }),
  })
  .meta({ id: "PersonErased" });

const profile = z
  .object({
    ...personFields,
    status: z.string(),
    deletedAt: timestamp.nullable(),
    anonymisedAt: timestamp.nullable().meta({ description: "When the record was anonymised (§21); null otherwise." }),
  })
  .meta({ id: "ExportedProfile" });

const reference = z.object({ id: idSchema, name: z.string() });

const exportedAnswer = z.object({
  questionId: idSchema,
  position: z.number().int(),
  questionText: z.string(),
  questionType: z.enum(QUESTION_TYPES),
  optionIds: z.array(z.string()),
  optionTexts: z.array(z.string()),
  text: z.string().nullable(),
  score: z.number(),
  maxScore: z.number(),
});

/** A submission as the lists answer it, with what it was scored and its answers; a deleted one too. */
const exportedSubmission = submissionItem.omit({ student: true, candidate: true, status: true }).extend({
  formTitle: z.string().nullable().meta({ description: "The form's title as it was at completion." }),
  groupId: idSchema.nullable(),
  ...scaleResultFields,
  acknowledgedAt: timestamp.nullable(),
  acknowledgedBy: reference.nullable(),
  acknowledgementNote: z.string().nullable(),
  deletedAt: timestamp.nullable(),
  answers: z.array(exportedAnswer),
});

const exportedAuditEvent = z.object({
  id: idSchema,
  at: timestamp,
  actor: z.object({ kind: z.enum(["USER", "TOKEN", "RESPONDENT", "SYSTEM"]), id: z.string().nullable(), name: z.string().nullable() }),
  action: z.string(),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
  details: z.record(z.string(), z.unknown()).nullable(),
});

/** GET /api/students/:id/export and /api/candidates/:id/export: everything stored about the person. */
export const subjectAccessDocument = z
  .object({
    exportedAt: timestamp,
    kind: z.enum(["student", "candidate"]),
    person: profile,
    alsoRecordedAs: z
      .object({ kind: z.enum(["student", "candidate"]), profile })
      .nullable()
      .meta({ description: "The same person's other record: the candidate a student was promoted from, or the student a candidate became." }),
    login: z
      .object({
        id: idSchema,
        email: z.string(),
        name: z.string(),
        phone: z.string().nullable(),
        locale: z.string(),
        isActive: z.boolean(),
        lastLoginAt: timestamp.nullable(),
        createdAt: timestamp,
        deletedAt: timestamp.nullable(),
      })
      .nullable()
      .meta({ description: "A student's own login, when they have one." }),
    groups: z.array(z.object({ id: idSchema, name: z.string(), addedAt: timestamp, deletedAt: timestamp.nullable() })),
    submissions: z
      .array(exportedSubmission)
      .meta({ description: "Every link given to the person, oldest first, each with its answers, scores, subscales and flags." }),
    drafts: z
      .array(z.object({ submissionId: idSchema, answers: z.array(z.unknown()), savedAt: timestamp }))
      .meta({ description: "Answers saved but not sent." }),
    schedules: z
      .array(
        z.object({
          id: idSchema,
          form: z.object({ id: idSchema, title: z.string() }),
          groupId: idSchema.nullable(),
          namesThePerson: z.boolean().meta({ description: "true: the schedule names the person; false: it reaches them through a group of theirs." }),
          startsOn: z.string(),
          everyDays: z.number().int(),
          endsOn: z.string().nullable(),
          nextOn: z.string(),
          pausedAt: timestamp.nullable(),
          createdAt: timestamp,
          deletedAt: timestamp.nullable(),
        }),
      )
      .meta({ description: "The schedules that name the person or one of their groups." }),
    auditEvents: z.array(exportedAuditEvent).meta({ description: "The audit events about the person or one of their submissions, oldest first." }),
  })
  .meta({ id: "SubjectAccess" });
export type SubjectAccessDocument = z.input<typeof subjectAccessDocument>;
