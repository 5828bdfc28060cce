import { z } from "zod";
import { linkImage } from "../forms/form-image-schemas.ts";
import { privacyNoticeOutput } from "../organization/organization-schemas.ts";
import { questionScale } from "../forms/form-schemas.ts";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { SUBMISSION_STATUSES } from "./submission-status.ts";
import { booleanParam, changesResponse, expiryInput, idSchema, notDeleted, paginationQuery, timestamp, typedText, updatedSinceParam } from "~/lib/schemas.ts";

/**
 * When a link stops working: a date-time, or a day meaning the end of that day in the organization's
 * time zone. Resolved, and checked to be in the future, by `linkExpiry` (it needs the zone).
 */

export const createSubmissionBody = z
  .strictObject({
    formId: idSchema,
    studentId: idSchema.optional(),
    candidateId: idSchema.optional(),
    expiresAt: expiryInput.optional().meta({ description: "When the link stops working; no expiry when left out." }),
  })
  .superRefine((body, ctx) => {
    if ((body.studentId === undefined) === (body.candidateId === undefined)) {
      ctx.addIssue({ code: "custom", path: ["studentId"], message: "respondent" });
    }
  })
  .meta({ id: "AssignmentCreate" });
export type CreateSubmissionInput = z.output<typeof createSubmissionBody>;

export const listSubmissionsQuery = z.strictObject({
  ...paginationQuery,
  formId: idSchema.optional(),
  studentId: idSchema.optional(),
  candidateId: idSchema.optional(),
  isCompleted: booleanParam.optional(),
  status: z.enum(SUBMISSION_STATUSES).optional(),
  groupId: idSchema.optional().meta({ description: "Only the submissions of this group's members." }),
  updatedSince: updatedSinceParam,
});
export type ListSubmissionsQuery = z.output<typeof listSubmissionsQuery>;

/** Answers sent by the respondent; scores are never accepted from a client. */
/** At most this many respondents in one bulk assignment (docs/api-contract.md §10). */
export const BULK_LIMIT = 1000;

/** Who gets links at once: a group's members and the people named (a bulk assignment, a schedule's occurrences). */
export const respondentFields = {
  groupId: idSchema.optional().meta({ description: "Every member of this group." }),
  studentIds: z.array(idSchema).max(BULK_LIMIT).optional(),
  candidateIds: z.array(idSchema).max(BULK_LIMIT).optional(),
};

/** At least one of a group, students or candidates (a refinement of a body with `respondentFields`). */
export function chooseRespondents(
  body: { groupId?: string | null | undefined; studentIds?: string[] | undefined; candidateIds?: string[] | undefined },
  ctx: z.RefinementCtx,
) {
  if (!body.groupId && !body.studentIds?.length && !body.candidateIds?.length) {
    ctx.addIssue({ code: "custom", path: ["groupId"], message: "chooseRespondents" });
  }
}

export const bulkAssignBody = z
  .strictObject({
    formId: idSchema,
    ...respondentFields,
    expiresAt: expiryInput.optional().meta({ description: "When the links stop working; no expiry when left out." }),
    send: z.boolean().optional().meta({ description: "true: e-mail each link to its respondent (through the job queue)." }),
    remindAfterDays: z
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .meta({ description: "Once this many days have passed, e-mail one reminder to each respondent of this call still waiting who has an address." }),
  })
  .superRefine(chooseRespondents)
  .meta({ id: "BulkAssignment" });
export type BulkAssignInput = z.output<typeof bulkAssignBody>;

/** Why a respondent of a bulk assignment got no new link. */
export const SKIP_REASONS = ["ALREADY_PENDING", "NOT_ACTIVE"] as const;

/** PUT /api/submissions/:id: a pending link's new expiry (`null`: none). */
export const updateSubmissionBody = z
  .strictObject({
    expiresAt: expiryInput.nullable().meta({ description: "The new end of the link, later or earlier; null for no expiry." }),
  })
  .meta({ id: "SubmissionUpdate" });
export type UpdateSubmissionInput = z.output<typeof updateSubmissionBody>;

export const submitAnswersBody = z
  .strictObject({
    answers: z
      .array(
        z.strictObject({
          questionId: idSchema,
          optionIds: z.array(idSchema).max(50).optional(),
          text: typedText(10_000).nullable().optional(),
        }),
      )
      .max(500),
  })
  .meta({ id: "TestAnswers" });
export type SubmitAnswersInput = z.output<typeof submitAnswersBody>;

/** PUT /api/test-link/:token/draft: answers so far, checked like a submit's but none required (docs/api-contract.md §12). */
export const saveDraftBody = submitAnswersBody.meta({ id: "TestDraft" });

const testProgress = z
  .object({ answered: z.number().int(), total: z.number().int() })
  .meta({ id: "TestProgress", description: "How many of the test's questions have an answer." });

export const draftSavedResponse = z.object({ progress: testProgress, savedAt: timestamp }).meta({ id: "TestDraftSaved" });

const personRef = z.object({ id: idSchema, name: z.string() });

/**
 * A result field: null until the test is completed, and for a student reading their own test when
 * its form does not show the respondent their result (`showResultToRespondent` false).
 */
const resultField = <Schema extends z.ZodType>(schema: Schema, what: string) =>
  schema.nullable().meta({
    description: `${what}; null until completed, and withheld (null) from the respondent's own login when the form has showResultToRespondent false.`,
  });

export const submissionItem = z
  .object({
    id: idSchema,
    form: z.object({ id: idSchema, title: z.string() }),
    student: personRef.nullable(),
    candidate: personRef.nullable(),
    assignedBy: personRef,
    isCompleted: z.boolean(),
    completedAt: timestamp.nullable(),
    totalScore: resultField(z.number(), "The total score"),
    maxScore: resultField(z.number(), "The highest total possible"),
    percentage: resultField(z.number(), "The total as a percentage of the highest"),
    scoreLabel: resultField(z.string(), "The band's label (also null when no band holds the total)"),
    scoreColor: resultField(z.string(), "The band's colour (also null when no band holds the total)"),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
    status: z.enum(SUBMISSION_STATUSES).meta({ description: "The life of the link; EXPIRED is derived from expiresAt when read." }),
    openedAt: timestamp.nullable().meta({ description: "When the respondent first opened the link." }),
    startedAt: timestamp.nullable().meta({ description: "When the respondent first saved answers without sending them (IN_PROGRESS)." }),
    sentAt: timestamp.nullable().meta({ description: "When the mail server last accepted the e-mailed link (not when it was queued)." }),
    sendCount: z.number().int().meta({ description: "How many times the mail server accepted the e-mailed link." }),
    remindedAt: timestamp.nullable().meta({ description: "When the mail server last accepted a reminder; a refused reminder leaves it as it was." }),
    mailFailedAt: timestamp.nullable().meta({
      description:
        "When the latest e-mail about the link (the link or a reminder) failed for good: the mail server refused it with a permanent (5xx) reply, or it was still refused after its retries (about 24 hours). Null once a later message is queued or accepted.",
    }),
    mailError: z.string().nullable().meta({
      description:
        'The mail server\'s reply to the failed e-mail, as it gave it (e.g. "550 Mailbox unavailable"); null when no server answered (unreachable, timed out) or nothing failed.',
    }),
    revokedAt: timestamp.nullable(),
    updatedAt: timestamp.meta({
      description:
        "When the submission last changed: assigned, opened, started, sent, reminded, completed, withdrawn, its expiry moved, or its respondent changed (a promotion, a new name on a result). Not when it expires by the passing of time: a client derives EXPIRED from expiresAt.",
    }),
    deletedAt: notDeleted,
  })
  .meta({ id: "Submission" });

export const submissionListResponse = changesResponse("submissions", submissionItem);

export const submissionDetail = submissionItem
  .extend({
    answers: z.array(
      z.object({
        questionId: idSchema,
        questionText: z.string(),
        type: z.enum(QUESTION_TYPES),
        optionIds: z.array(z.string()),
        optionTexts: z.array(z.string()),
        text: z.string().nullable(),
        score: z
          .number()
          .nullable()
          .meta({ description: "The answer's score; withheld (null) from the respondent's own login when the form has showResultToRespondent false." }),
      }),
    ),
    token: z.string().optional().meta({ description: "Only while pending." }),
    url: z.string().optional().meta({ description: "The public link; only while pending." }),
  })
  .meta({ id: "SubmissionDetail" });

export const bulkAssignResponse = z
  .object({
    created: z.array(
      submissionItem
        .extend({
          token: z.string(),
          url: z.string().meta({ description: "The public link, in the caller's language." }),
          delivery: z.enum(["QUEUED", "NO_EMAIL"]).optional().meta({ description: "With send: the e-mail is queued, or the respondent has no address." }),
        })
        .meta({ id: "CreatedAssignment" }),
    ),
    skipped: z.array(
      z.object({ kind: z.enum(["student", "candidate"]), id: idSchema, name: z.string(), reason: z.enum(SKIP_REASONS) }).meta({ id: "SkippedRespondent" }),
    ),
  })
  .meta({ id: "BulkAssignmentResult" });

export const testLinkResponse = z
  .object({
    form: z.object({
      title: z.string(),
      description: z.string().nullable(),
      questions: z.array(
        z.object({
          id: idSchema,
          text: z.string(),
          type: z.enum(QUESTION_TYPES),
          required: z.boolean(),
          scale: questionScale,
          options: z.array(z.object({ id: idSchema, text: z.string(), image: linkImage })),
          image: linkImage,
        }),
      ),
    }),
    respondent: z.object({ name: z.string() }),
    isCompleted: z.boolean(),
    expiresAt: timestamp.nullable(),
    progress: testProgress,
    draft: z
      .object({ answers: submitAnswersBody.shape.answers, savedAt: timestamp })
      .optional()
      .meta({ description: "The answers saved but not sent yet, when there are some." }),
    privacyNotice: privacyNoticeOutput,
  })
  .meta({ id: "TestLink" });

export const submitResponse = z
  .object({
    submissionId: idSchema,
    isCompleted: z.literal(true),
    completedAt: timestamp,
    criticalMessage: z.string().nullable().meta({
      description:
        "What the respondent must be shown now (docs/api-contract.md §16): the form's critical message when an answer was critical, else null. Nothing else tells them.",
    }),
  })
  .meta({ id: "TestSubmitted" });

/** POST /api/submissions/remind: "remind now" for one form's waiting links, optionally only a group's. */
export const remindWaitingBody = z
  .strictObject({
    formId: idSchema,
    groupId: idSchema.optional().meta({ description: "Only the links of this group's members." }),
  })
  .meta({ id: "RemindWaiting" });

export const remindWaitingResponse = z
  .object({
    queued: z.number().int().meta({ description: "Reminders queued, one per waiting respondent with an e-mail address." }),
    noEmail: z.number().int().meta({ description: "Waiting respondents without an e-mail address." }),
    recentlySent: z
      .number()
      .int()
      .meta({ description: "Waiting respondents whose link was e-mailed (queued) in the last 10 minutes or still has a message waiting to go out, left out." }),
  })
  .meta({ id: "RemindResult" });

/** GET /api/user/assignments: a signed-in student's own tests (docs/api-contract.md §12). */
export const studentAssignmentsResponse = z
  .object({
    assignments: z.array(
      z.object({
        id: idSchema,
        form: z.object({ title: z.string() }),
        status: z.enum(SUBMISSION_STATUSES),
        assignedAt: timestamp,
        expiresAt: timestamp.nullable(),
        completedAt: timestamp.nullable(),
        url: z.string().nullable().meta({ description: "The test's private link while it waits for answers; null once answered." }),
        result: z
          .object({
            totalScore: z.number().nullable().meta({ description: "null when more items are missing than the form allows (`scoring.maxMissing`)." }),
            maxScore: z.number(),
            percentage: z.number().nullable(),
            scoreLabel: z.string().nullable(),
            scoreColor: z.string().nullable(),
          })
          .nullable()
          .meta({ description: "The score and band, only when the form allows it (showResultToRespondent)." }),
      }),
    ),
  })
  .meta({ id: "StudentAssignments" });
