import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { ApiError, badRequest, conflict, notFound } from "~/lib/problem.server.ts";
import { rawBoolean, rawDate, rawJson } from "~/lib/raw-values.ts";
import { submissionSearchText } from "~/lib/search.ts";
import { presentQuestion } from "../forms/forms.server.ts";
import { formContent } from "./form-content-cache.server.ts";
import { respondentOrder } from "./respondent-order.ts";
import { answeredCount, answerProblems, type GivenAnswer, type ScoredAnswer, type ScoringQuestion } from "../scoring/scoring.ts";
import { isChoice } from "../scoring/answered.ts";
import { requiredOnTheLink, type ScaleForm, type ScaleResult, scoreForm, submitProblems } from "../scoring/scales.ts";
import { SCORED_AGAINST_VERSION, type ScoredAgainst } from "./scored-against.ts";
import type { SubmitAnswersInput } from "./submission-schemas.ts";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import type { WebhookData } from "../webhooks/webhook-payloads.ts";
import { flagAlertJobs, flagAlertRecipients } from "../flags/flag-alerts.server.ts";
import { enqueueJobs } from "../jobs/jobs.server.ts";
import { newId } from "~/lib/ids.server.ts";
import type { OrganizationKind } from "../organization/organization-kinds.ts";
import { type PrivacyNotice, readPrivacyNotice } from "../organization/privacy-notice.ts";
import { imageView, linkImageUrl } from "../forms/form-image-schemas.ts";

/**
 * The public side of an assignment: anyone holding the token may read the test (without scores or
 * bands) and submit it once.
 */

const linkNotFound = () => notFound("test link");

/** Tokens are 43 characters of base64url; anything else cannot exist and skips the query. */
export const TOKEN_SHAPE = /^[\w-]{20,100}$/;
const alreadyCompleted = () => conflict("This test has already been completed.", "ALREADY_COMPLETED");

/** A link's row with its respondent, assigner, draft and form, as one raw query reads it. */
type LinkRow = {
  id: string;
  organizationId: string;
  organizationKind: OrganizationKind;
  /** The organization's privacy notice as JSON text. */
  privacyNotice: string | null;
  isCompleted: unknown;
  revokedAt: unknown;
  expiresAt: unknown;
  openedAt: unknown;
  startedAt: unknown;
  deletedAt: unknown;
  assignedById: string;
  assignedByName: string;
  draftAnswers: unknown;
  draftSavedAt: unknown;
  studentId: string | null;
  studentName: string | null;
  studentGrade: string | null;
  studentAge: number | null;
  studentDeletedAt: unknown;
  candidateId: string | null;
  candidateName: string | null;
  candidateGrade: string | null;
  candidateAge: number | null;
  candidateDeletedAt: unknown;
  formId: string;
  formTitle: string;
  formDescription: string | null;
  formCategory: string | null;
  formType: string | null;
  formIsPublished: unknown;
  formDeletedAt: unknown;
  formContentVersion: unknown;
  formShuffleQuestions: unknown;
  formShuffleOptions: unknown;
  formVersion: unknown;
};

/**
 * The organization's notice from the raw query as JSON text on both databases: read as JSON, a
 * notice that is one string would come back as the bare text, which no parse can tell from JSON.
 */
const noticeColumn = () => (env().databaseProvider === "postgresql" ? Prisma.sql`o."privacyNotice"::text` : Prisma.sql`CAST(o."privacyNotice" AS TEXT)`);
const noticeOf = (text: string | null) => readPrivacyNotice(text === null ? null : JSON.parse(text));

/**
 * The link, its respondent, assigner, draft and form in one query, and the form's content from the
 * cache of form contents (ADR 33): every open, save and submit starts here, and reading it through
 * the ORM's relations took nine statements on SQLite.
 */
async function loadLink(token: string) {
  if (!TOKEN_SHAPE.test(token)) throw linkNotFound();
  const [row] = await db.$queryRaw<LinkRow[]>`
    SELECT s."id", s."organizationId", o."kind" AS "organizationKind", ${noticeColumn()} AS "privacyNotice", s."isCompleted", s."revokedAt", s."expiresAt", s."openedAt", s."startedAt", s."deletedAt",
           s."assignedById", u."name" AS "assignedByName", d."answers" AS "draftAnswers", d."savedAt" AS "draftSavedAt",
           st."id" AS "studentId", st."name" AS "studentName", st."grade" AS "studentGrade", st."age" AS "studentAge", st."deletedAt" AS "studentDeletedAt",
           ca."id" AS "candidateId", ca."name" AS "candidateName", ca."grade" AS "candidateGrade", ca."age" AS "candidateAge", ca."deletedAt" AS "candidateDeletedAt",
           f."id" AS "formId", f."title" AS "formTitle", f."description" AS "formDescription", f."category" AS "formCategory", f."type" AS "formType",
           f."isPublished" AS "formIsPublished", f."deletedAt" AS "formDeletedAt", f."contentVersion" AS "formContentVersion",
           f."shuffleQuestions" AS "formShuffleQuestions", f."shuffleOptions" AS "formShuffleOptions", f."version" AS "formVersion"
      FROM "Submission" AS s
      JOIN "Organization" AS o ON o."id" = s."organizationId"
      JOIN "User" AS u ON u."id" = s."assignedById"
      JOIN "Form" AS f ON f."id" = s."formId"
      LEFT JOIN "SubmissionDraft" AS d ON d."submissionId" = s."id"
      LEFT JOIN "Student" AS st ON st."id" = s."studentId"
      LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
     WHERE s."token" = ${token}`;
  const person = (kind: "student" | "candidate") => {
    const id = kind === "student" ? row?.studentId : row?.candidateId;
    if (!row || !id) return null;
    return kind === "student"
      ? {
          id,
          name: row.studentName!,
          grade: row.studentGrade,
          age: row.studentAge === null ? null : Number(row.studentAge),
          deletedAt: rawDate(row.studentDeletedAt),
        }
      : {
          id,
          name: row.candidateName!,
          grade: row.candidateGrade,
          age: row.candidateAge === null ? null : Number(row.candidateAge),
          deletedAt: rawDate(row.candidateDeletedAt),
        };
  };
  // A link stops working when its submission, its form or its respondent is deleted. After a
  // promotion the student is the respondent.
  const student = person("student");
  const respondent = student ?? person("candidate");
  if (!row || row.deletedAt !== null || row.formDeletedAt !== null || !respondent || respondent.deletedAt) throw linkNotFound();
  const content = await formContent(row.formId, Number(row.formContentVersion));
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationKind: row.organizationKind,
    privacyNotice: noticeOf(row.privacyNotice),
    assignedBy: { id: row.assignedById, name: row.assignedByName },
    isCompleted: rawBoolean(row.isCompleted),
    revokedAt: rawDate(row.revokedAt),
    expiresAt: rawDate(row.expiresAt),
    openedAt: rawDate(row.openedAt),
    startedAt: rawDate(row.startedAt),
    draft: row.draftSavedAt === null ? null : { answers: rawJson(row.draftAnswers) as Prisma.JsonValue, savedAt: rawDate(row.draftSavedAt)! },
    form: {
      id: row.formId,
      title: row.formTitle,
      description: row.formDescription,
      category: row.formCategory,
      type: row.formType,
      isPublished: rawBoolean(row.formIsPublished),
      // Read with the link, not cached with the content: changing them changes no content version.
      shuffleQuestions: rawBoolean(row.formShuffleQuestions),
      shuffleOptions: rawBoolean(row.formShuffleOptions),
      // Raised only with the content (ADR 90), so it is the version of the content read with it.
      version: Number(row.formVersion),
      ...content,
    },
    respondent,
    respondentKind: student ? ("student" as const) : ("candidate" as const),
  };
}

/**
 * Whether the link still takes answers: not completed (409), not revoked by its assigner, not
 * expired, and its form still published (each 410 with its own code, so the page can say which).
 */
function assertOpen(link: { isCompleted: boolean; expiresAt: Date | null; revokedAt: Date | null; form: { isPublished: boolean } }, now = new Date()) {
  if (link.isCompleted) throw alreadyCompleted();
  if (link.revokedAt) throw new ApiError(410, "LINK_REVOKED", "This test link was withdrawn by the person who sent it.");
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) {
    throw new ApiError(410, "LINK_EXPIRED", "This test link has expired. Ask for a new one.");
  }
  if (!link.form.isPublished) throw new ApiError(410, "FORM_CLOSED", "This test is not accepting answers at the moment.");
}

/**
 * The test as its respondent sees it: questions and option texts, never scores or bands, in the
 * link's own order when the form shuffles (respondent-order.ts); with the answers saved so far, if
 * any, and how many questions they answer.
 */
export async function openTestLink(token: string) {
  return (await openTestLinkPage(token)).test;
}

/** The test as `openTestLink` answers it, and which words its organization's pages say (ADR 81), for the respondent's page. */
export async function openTestLinkPage(token: string) {
  const link = await loadLink(token);
  assertOpen(link);
  // The first opening moves the link from PENDING to OPENED; later ones change nothing.
  if (!link.openedAt) await db.submission.updateMany({ where: { id: link.id, openedAt: null }, data: { openedAt: new Date() } });
  const draftAnswers = link.draft ? (link.draft.answers as GivenAnswer[]) : [];
  const linkImage = (imageId: string) => linkImageUrl(token, imageId);
  const test = {
    form: {
      title: link.form.title,
      description: link.form.description,
      questions: respondentOrder(link.form.questions.map(presentQuestion), link.id, link.form).map((q) => ({
        id: q.id,
        text: q.text,
        type: q.type,
        required: requiredOnTheLink(link.form, q),
        scale: q.scale,
        options: q.options.map((o) => ({ id: o.id, text: o.text, image: imageView(o, linkImage) })),
        image: imageView(q, linkImage),
      })),
    },
    respondent: { name: link.respondent.name },
    isCompleted: link.isCompleted,
    expiresAt: link.expiresAt,
    progress: answeredCount(link.form.questions, draftAnswers),
    ...(link.draft ? { draft: { answers: draftAnswers, savedAt: link.draft.savedAt } } : {}),
    privacyNotice: link.privacyNotice,
  };
  return { test, organizationKind: link.organizationKind };
}

/**
 * Answers saved without sending them (docs/api-contract.md §12): checked like a submit's (questions and
 * options of this test) but none required, never scored. The first save marks the link
 * IN_PROGRESS; later ones only replace the draft, so saving as the respondent goes costs one small
 * row, not the submission's (whose triggers renew the organization's report caches).
 */
export async function saveTestDraft(token: string, input: SubmitAnswersInput) {
  const link = await loadLink(token);
  assertOpen(link);
  const problems = answerProblems(link.form.questions as ScoringQuestion[], input.answers, { complete: false });
  if (problems.length > 0) throw badRequest("Some answers need attention.", problems);
  const answers = input.answers as Prisma.InputJsonValue;
  const draft = await db.$transaction(async (tx) => {
    const saved = await tx.submissionDraft.upsert({
      where: { submissionId: link.id },
      create: { submissionId: link.id, answers },
      update: { answers },
      select: { savedAt: true },
    });
    // Submitted (or withdrawn) since the link was read: the draft goes with the rollback.
    const open = { id: link.id, isCompleted: false, revokedAt: null };
    if (!link.startedAt) await tx.submission.updateMany({ where: { ...open, startedAt: null }, data: { startedAt: saved.savedAt } });
    if ((await tx.submission.count({ where: open })) === 0) throw alreadyCompleted();
    return saved;
  });
  return { progress: answeredCount(link.form.questions, input.answers), savedAt: draft.savedAt };
}

/** The respondent's name as committed now, locked against a concurrent rename on PostgreSQL. */
async function respondentName(tx: Prisma.TransactionClient, kind: "student" | "candidate", id: string) {
  const table = Prisma.raw(kind === "student" ? '"Student"' : '"Candidate"');
  const lock = env().databaseProvider === "postgresql" ? Prisma.sql`FOR SHARE` : Prisma.empty;
  const rows = await tx.$queryRaw<{ name: string }[]>`SELECT "name" FROM ${table} WHERE "id" = ${id} ${lock}`;
  return rows[0]?.name;
}

type AnswerRow = ScoredAnswer & { id: string; submissionId: string };

/**
 * Each question's answer as stored: the engine's score (mirrored for a reverse item) with the
 * question's and the chosen options' texts, captured like the score.
 */
function answerRecords(form: ScaleForm, result: ScaleResult, answers: GivenAnswer[]): ScoredAnswer[] {
  const given = new Map(answers.map((answer) => [answer.questionId, answer]));
  return result.answers.map((answer) => {
    const question = form.questions[answer.position]!;
    const text = given.get(question.id)?.text;
    return {
      questionId: question.id,
      position: answer.position,
      questionText: question.text,
      questionType: question.type,
      optionIds: answer.optionIds,
      optionTexts: question.options.filter((option) => answer.optionIds.includes(option.id)).map((option) => option.text),
      text: !isChoice(question.type) && typeof text === "string" && text.trim() !== "" ? text : null,
      score: answer.score,
      maxScore: answer.maxScore,
    };
  });
}

/**
 * A submit's answers in one INSERT. Prisma's `createMany` of 20 rows cost ≈4–5 ms of CPU, 40 % of
 * it compiling the query, inside the transaction that on SQLite holds the only
 * connection; the statement written out costs a fraction of that.
 */
async function insertAnswers(tx: Prisma.TransactionClient, rows: AnswerRow[], createdAt: Date) {
  if (rows.length === 0) return;
  const postgres = env().databaseProvider === "postgresql";
  const json = (value: unknown) => (postgres ? Prisma.sql`${JSON.stringify(value)}::jsonb` : Prisma.sql`${JSON.stringify(value)}`);
  const questionType = (type: string) => (postgres ? Prisma.sql`${type}::"QuestionType"` : Prisma.sql`${type}`);
  const values = rows.map(
    (row) =>
      Prisma.sql`(${row.id}, ${row.submissionId}, ${row.questionId}, ${row.position}, ${row.questionText}, ${questionType(row.questionType)},
        ${json(row.optionIds)}, ${json(row.optionTexts)}, ${row.text}, ${row.score}, ${row.maxScore}, ${createdAt})`,
  );
  await tx.$executeRaw`
    INSERT INTO "Answer" ("id", "submissionId", "questionId", "position", "questionText", "questionType", "optionIds", "optionTexts", "text", "score", "maxScore", "createdAt")
    VALUES ${Prisma.join(values)}`;
}

/**
 * Marks the submission completed with its result, if it is still open at this instant (not
 * completed, not revoked): the number of rows changed, 1 or 0. One statement written out, as the
 * answers' INSERT: through the ORM, with the snapshot as a JSON value, it cost more CPU time than
 * SQLite took to run it, inside the transaction that holds SQLite's only connection.
 */
async function claimSubmission(
  tx: Prisma.TransactionClient,
  id: string,
  claim: {
    completedAt: Date;
    result: ScaleResult;
    formTitle: string;
    formVersion: number;
    scoredAgainst: ScoredAgainst;
    searchText: string;
    criticalMessage: string | null;
  },
): Promise<number> {
  const postgres = env().databaseProvider === "postgresql";
  const json = (value: unknown) => (postgres ? Prisma.sql`${JSON.stringify(value)}::jsonb` : Prisma.sql`${JSON.stringify(value)}`);
  const { total, subscales, flags } = claim.result;
  const flagged = flags.length > 0;
  return tx.$executeRaw`
    UPDATE "Submission"
       SET "isCompleted" = TRUE, "completedAt" = ${claim.completedAt}, "totalScore" = ${total.score}, "maxScore" = ${total.maxScore},
           "percentage" = ${total.percentage}, "scoreLabel" = ${total.label}, "scoreColor" = ${total.color},
           "formTitle" = ${claim.formTitle}, "formVersion" = ${claim.formVersion}, "scoredAgainst" = ${json(claim.scoredAgainst)},
           "subscales" = ${json(subscales)}, "flags" = ${json(flags)}, "flaggedAt" = ${flagged ? claim.completedAt : null},
           "criticalMessage" = ${flagged ? claim.criticalMessage : null},
           "searchText" = ${claim.searchText}, "updatedAt" = ${claim.completedAt}
     WHERE "id" = ${id} AND "isCompleted" = FALSE AND "revokedAt" IS NULL`;
}

/**
 * Scores and stores the answers, once. The submission is claimed with a conditional update
 * (`isCompleted = false`) inside the same transaction that writes the answers: of simultaneous
 * submits exactly one claims it and the others get 409, and a failure while saving rolls the
 * claim back so the link keeps working.
 */
export async function submitTestLink(token: string, input: SubmitAnswersInput) {
  const link = await loadLink(token);
  assertOpen(link);
  // The snapshot keeps each question as the form's content has it, its scale's range included.
  const questions = link.form.questions;
  const form: ScaleForm = { questions, scoreRanges: link.form.scoreRanges, scoring: link.form.scoring, subscales: link.form.subscales };
  const problems = submitProblems(form, input.answers);
  if (problems.length > 0) throw badRequest("Some answers need attention.", problems);

  const result = scoreForm(form, input.answers);
  const scoredAgainst: ScoredAgainst = {
    version: SCORED_AGAINST_VERSION,
    form: { id: link.form.id, title: link.form.title, category: link.form.category, type: link.form.type },
    respondent: {
      kind: link.respondentKind,
      id: link.respondent.id,
      name: link.respondent.name,
      grade: link.respondent.grade,
      age: link.respondent.age,
    },
    questions,
    scoreRanges: link.form.scoreRanges,
    scoring: link.form.scoring,
    subscales: link.form.subscales,
  };
  const completedAt = new Date();
  // Answer ids are made here, before the transaction: on SQLite the transaction holds the only
  // connection, so everything done inside it keeps every other request waiting.
  const answerRows = answerRecords(form, result, input.answers).map((answer) => ({ id: newId(), submissionId: link.id, ...answer }));
  const postgres = env().databaseProvider === "postgresql";
  // A flagged result also fires `submission.flagged` and e-mails its recipients (docs/api-contract.md
  // §16, ADR 71), queued in the same transaction; who they are is read before it, as the subscribers are.
  const flagged = result.flags.length > 0;
  const criticalMessage = flagged ? link.form.criticalMessage : null;
  const [subscribers, flagSubscribers, alertRecipients] = await Promise.all([
    webhookSubscribers(link.organizationId, "submission.completed", link.form.id),
    flagged ? webhookSubscribers(link.organizationId, "submission.flagged", link.form.id) : [],
    flagged ? flagAlertRecipients({ id: link.id, organizationId: link.organizationId, assignedById: link.assignedBy.id }) : [],
  ]);
  await db.$transaction(async (tx) => {
    // The search text holds the respondent's current name, read in this transaction so that a
    // rename committing meanwhile cannot be missed: a rename rewrites the completed submissions
    // (people.server.ts), and this one only counts as completed once this transaction commits.
    // SQLite serializes the two writers; PostgreSQL needs the row lock (FOR SHARE) to do the same.
    // On PostgreSQL that lock is taken BEFORE the claim: the claim's UPDATE also locks the
    // organization's "SubmissionsVersion" row (a trigger, docs/decisions/0013-report-totals.md)
    // until commit, and a rename locks the respondent first and that row second; taking them in
    // the other order here would let the two deadlock. SQLite keeps the read after the claim, so
    // that its transaction starts by writing (a deferred transaction that reads first can fail
    // with SQLITE_BUSY when another connection writes before it does); the claim writes the name
    // read with the link, and only a rename in between costs a second UPDATE.
    const lockedName = postgres ? await respondentName(tx, link.respondentKind, link.respondent.id) : undefined;
    const claimedName = lockedName ?? link.respondent.name;
    const claimed = await claimSubmission(tx, link.id, {
      completedAt,
      result,
      formTitle: link.form.title,
      formVersion: link.form.version,
      scoredAgainst,
      searchText: submissionSearchText(claimedName, link.form.title),
      criticalMessage,
    });
    if (claimed !== 1) {
      // Completed by another submit, or revoked, since the link was read: say which.
      const now = await tx.submission.findUnique({ where: { id: link.id }, select: { isCompleted: true, revokedAt: true } });
      if (now?.revokedAt && !now.isCompleted) assertOpen({ ...link, revokedAt: now.revokedAt });
      throw alreadyCompleted();
    }
    const name = postgres ? claimedName : ((await respondentName(tx, link.respondentKind, link.respondent.id)) ?? claimedName);
    if (name !== claimedName) {
      await tx.submission.update({ where: { id: link.id }, data: { searchText: submissionSearchText(name, link.form.title) }, select: { id: true } });
    }
    await insertAnswers(tx, answerRows, completedAt);
    // Submitting discards the draft: what was sent is the answer now. (Always asked: a draft saved
    // after the link was read may exist.)
    await tx.$executeRaw`DELETE FROM "SubmissionDraft" WHERE "submissionId" = ${link.id}`;
    // The report item, as GET /api/reports lists it, and the form's id (docs/api-contract.md §14).
    const completed: WebhookData<"submission.completed"> = {
      id: link.id,
      studentName: name,
      formTitle: link.form.title,
      completedAt: completedAt.toISOString(),
      totalScore: result.total.score,
      maxScore: result.total.maxScore,
      percentage: result.total.percentage,
      scoreLabel: result.total.label,
      scoreColor: result.total.color,
      subscales: result.subscales,
      flags: result.flags,
      flaggedAt: flagged ? completedAt.toISOString() : null,
      acknowledgedAt: null,
      acknowledgedBy: null,
      acknowledgementNote: null,
      assignedByName: link.assignedBy.name,
      formId: link.form.id,
      respondent: { kind: link.respondentKind, id: link.respondent.id },
    };
    await emitWebhookEvent(tx, subscribers, "submission.completed", completed);
    if (flagged) {
      await emitWebhookEvent(tx, flagSubscribers, "submission.flagged", completed);
      await enqueueJobs(tx, flagAlertJobs(link.id, alertRecipients));
    }
  });
  return { submissionId: link.id, isCompleted: true as const, completedAt, criticalMessage };
}

/**
 * What the page of a link that takes no answers (completed, expired, withdrawn, closed) still tells
 * its respondent: the organization's privacy notice (docs/api-contract.md §21), and for a completed
 * link the form's `criticalMessage` as it was captured when the answers were flagged
 * (docs/api-contract.md §16), else null. Nothing else about the result; nothing for a link that
 * does not exist or was deleted.
 */
export async function closedLinkNotices(token: string): Promise<{ criticalMessage: string | null; privacyNotice: PrivacyNotice | null }> {
  const none = { criticalMessage: null, privacyNotice: null };
  if (!TOKEN_SHAPE.test(token)) return none;
  const row = await db.submission.findUnique({
    where: { token },
    select: { isCompleted: true, deletedAt: true, criticalMessage: true, organization: { select: { privacyNotice: true } } },
  });
  if (!row || row.deletedAt) return none;
  return { criticalMessage: row.isCompleted ? row.criticalMessage : null, privacyNotice: readPrivacyNotice(row.organization.privacyNotice) };
}
