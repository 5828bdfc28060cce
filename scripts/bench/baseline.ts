import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import { type ScoreBand, scoreAnswers, type ScoringQuestion } from "../../app/features/scoring/scoring.ts";
import type { ScoringRule } from "../../app/features/scoring/answer-key.ts";
import { SCORED_AGAINST_VERSION } from "../../app/features/submissions/scored-against.ts";
import {
  DEFAULT_SCORING,
  type ScaleBand,
  type ScaleQuestion,
  type ScoringSettings,
  type Subscale,
  scoreForm,
  submitProblems,
} from "../../app/features/scoring/scales.ts";
import { submissionSearchText } from "../../app/lib/search.ts";
import { openSqlClient, type SqlClient } from "../../app/lib/sql-client.server.ts";
import { asDate, bool, callerOf, jsonOrNull, listReports, Refusal, sessionAnswer } from "./baseline-reads.ts";

/**
 * The bench's baseline (ADR 66): a bare `node:http` server that answers a fixed set of requests,
 * the ones the bench sends, with the statements the app runs for them, through the same driver,
 * with the same caches and the same JSON, and nothing else: no router, no validation library, no
 * ORM. It is the limit the app is measured against on these requests only:
 *
 * - GET /api/auth/session: the session check alone, every request's floor;
 * - GET /api/reports?page=&limit=: an administrator's reports list, newest first, with its total
 *   (these two in ./baseline-reads.ts, which the reference app answers them with too);
 * - POST /api/test-link/:token/submit: a respondent's answers, scored and stored.
 *
 * Anything else is refused (400 or 404), so that a request the baseline does not answer as the app
 * does cannot pass for a fast one. From app/ it takes only what holds no logic of an endpoint: pure
 * functions (the signed cookie, the token's hash, scoring, the folded search text), the session's
 * constants, and the driver connection the data set is seeded through. The bench checks that both
 * servers give the same answers (and, for the submit, store the same result) before it measures.
 *
 *   DATABASE_URL=… PORT=… SESSION_SECRET=… tsx scripts/bench/baseline.ts
 */

type FormContent = {
  version: number;
  questions: ScaleQuestion[];
  bands: ScaleBand[];
  scoring: ScoringSettings;
  subscales: Subscale[];
  criticalMessage: string | null;
};

/** A form's questions and bands, kept while its content version is unchanged, as the app's cache of form contents (ADR 33). */
const formContents = new Map<string, FormContent>();

async function formContent(client: SqlClient, formId: string, version: number): Promise<FormContent> {
  const cached = formContents.get(formId);
  if (cached?.version === version) return cached;
  const [questionRows, optionRows, bandRows, [formRow]] = await Promise.all([
    client.all<Record<string, unknown> & { id: string; text: string; type: ScoringQuestion["type"]; key: string | null }>(
      `SELECT "id", "text", "type", "required", "key", "reverseScored", "scaleMin", "scaleMax", "scaleMinLabel", "scaleMaxLabel", "imageId", "imageAlt", "points", "scoringRule", "feedback" FROM "Question" WHERE "formId" = ? ORDER BY "position"`,
      [formId],
    ),
    client.all<{
      id: string;
      text: string;
      score: number;
      critical: unknown;
      imageId: string | null;
      imageAlt: string | null;
      correct: unknown;
      feedback: string | null;
      questionId: string;
    }>(
      `SELECT o."id", o."text", o."score", o."critical", o."imageId", o."imageAlt", o."correct", o."feedback", o."questionId" FROM "Option" AS o JOIN "Question" AS q ON q."id" = o."questionId" WHERE q."formId" = ? ORDER BY o."position"`,
      [formId],
    ),
    client.all<ScoreBand & { critical: unknown }>(
      `SELECT "min", "max", "label", "color", "critical" FROM "ScoreRange" WHERE "formId" = ? ORDER BY "position"`,
      [formId],
    ),
    client.all<{ scoring: unknown; subscales: unknown; criticalMessage: string | null }>(
      `SELECT "scoring", "subscales", "criticalMessage" FROM "Form" WHERE "id" = ?`,
      [formId],
    ),
  ]);
  // Each object's fields in the order the app's content has them: the snapshots are compared as text.
  const questions = questionRows.map((q) => ({
    id: q.id,
    text: q.text,
    type: q.type,
    required: bool(q.required),
    key: q.key,
    reverseScored: bool(q.reverseScored),
    scaleMin: q.scaleMin,
    scaleMax: q.scaleMax,
    scaleMinLabel: q.scaleMinLabel,
    scaleMaxLabel: q.scaleMaxLabel,
    options: optionRows
      .filter((o) => o.questionId === q.id)
      .map((o) => ({
        id: o.id,
        text: o.text,
        score: o.score,
        critical: bool(o.critical),
        imageId: o.imageId,
        imageAlt: o.imageAlt,
        correct: bool(o.correct),
        feedback: o.feedback,
      })),
    imageId: q.imageId,
    imageAlt: q.imageAlt,
    points: q.points as number | null,
    scoringRule: q.scoringRule as ScoringRule,
    feedback: q.feedback as string | null,
  }));
  const bands = bandRows.map((band) => ({ ...band, critical: bool(band.critical) }));
  const scoring = { ...DEFAULT_SCORING, ...((jsonOrNull(formRow?.scoring) as Partial<ScoringSettings> | null) ?? {}) };
  const content = {
    version,
    questions,
    bands,
    scoring,
    subscales: (jsonOrNull(formRow?.subscales) as Subscale[] | null) ?? [],
    criticalMessage: formRow?.criticalMessage ?? null,
  };
  formContents.set(formId, content);
  return content;
}

/**
 * A rate limit's window counted once more (app/lib/auth/rate-limit.server.ts: the same statement,
 * -1 where a rule would restart its window at its limit, which neither of the submit's does; the
 * bench never reaches a limit, so the count is not compared).
 */
async function countAttempt(client: SqlClient, key: string, windowMs: number) {
  const now = Date.now();
  await client.all(
    `INSERT INTO "RateLimit" ("key", "windowStart", "count") VALUES (?, ?, 1)
     ON CONFLICT ("key") DO UPDATE SET
       "count" = CASE WHEN "RateLimit"."windowStart" <= ? THEN 1 ELSE "RateLimit"."count" + 1 END,
       "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ? THEN ? WHEN "RateLimit"."count" + 1 = ? THEN ? ELSE "RateLimit"."windowStart" END
     RETURNING "count", "windowStart"`,
    [key, now, now - windowMs, now - windowMs, now, -1, now],
  );
}

const TEN_MINUTES = 10 * 60 * 1000;
const ANSWER_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/**
 * The app's submit (app/routes/api/test-link.$token.submit.ts, app/features/submissions/test-link.server.ts)
 * statement for statement: the address's misses looked up, the link's and the address's writes
 * counted, the link with its respondent, assigner, draft and form in one statement, the form's
 * content from the cache, the organization's webhooks, then in one transaction the claim (with the
 * search text and the snapshot), the respondent's name read again (on PostgreSQL locked, before
 * the claim), the answers in one INSERT and the draft removed.
 */
async function submit(client: SqlClient, token: string, body: { answers: { questionId: string; optionIds?: string[] }[] }, address: string) {
  await client.all(`SELECT "key", "windowStart", "count" FROM "RateLimit" WHERE "key" = ? LIMIT 1`, [`test-link-miss:${address}`]);
  await countAttempt(client, `test-link-write:${createHash("sha256").update(token).digest("base64url").slice(0, 32)}`, TEN_MINUTES);
  await countAttempt(client, `test-link-submit:${address}`, TEN_MINUTES);
  const [link] = await client.all<Record<string, unknown> & { id: string; formId: string; formTitle: string }>(
    `SELECT s."id", s."organizationId", s."isCompleted", s."revokedAt", s."expiresAt", s."openedAt", s."startedAt", s."deletedAt",
            u."name" AS "assignedByName", d."answers" AS "draftAnswers", d."savedAt" AS "draftSavedAt",
            st."id" AS "studentId", st."name" AS "studentName", st."grade" AS "studentGrade", st."age" AS "studentAge", st."deletedAt" AS "studentDeletedAt",
            ca."id" AS "candidateId", ca."name" AS "candidateName", ca."grade" AS "candidateGrade", ca."age" AS "candidateAge", ca."deletedAt" AS "candidateDeletedAt",
            f."id" AS "formId", f."title" AS "formTitle", f."category" AS "formCategory", f."type" AS "formType",
            f."isPublished" AS "formIsPublished", f."deletedAt" AS "formDeletedAt", f."contentVersion" AS "formContentVersion",
            f."version" AS "formVersion"
       FROM "Submission" AS s
       JOIN "User" AS u ON u."id" = s."assignedById"
       JOIN "Form" AS f ON f."id" = s."formId"
       LEFT JOIN "SubmissionDraft" AS d ON d."submissionId" = s."id"
       LEFT JOIN "Student" AS st ON st."id" = s."studentId"
       LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
      WHERE s."token" = ?`,
    [token],
  );
  // After a promotion the student is the respondent, as in the app.
  const kind = link?.studentId ? "student" : "candidate";
  const person = (column: string) => link?.[`${kind}${column}`];
  if (!link || link.deletedAt !== null || link.formDeletedAt !== null || !person("Id") || person("DeletedAt") !== null) throw new Refusal(404, "no such link");
  const respondent = {
    kind,
    id: String(person("Id")),
    name: String(person("Name")),
    grade: person("Grade"),
    age: person("Age") === null ? null : Number(person("Age")),
  };
  if (bool(link.isCompleted)) throw new Refusal(409, "already completed");
  if (link.revokedAt !== null || (link.expiresAt !== null && asDate(link.expiresAt).getTime() <= Date.now()) || !bool(link.formIsPublished))
    throw new Refusal(410, "closed");
  const { questions, bands, scoring, subscales, criticalMessage } = await formContent(client, link.formId, Number(link.formContentVersion));
  const form = { questions, scoreRanges: bands, scoring, subscales };
  if (submitProblems(form, body.answers).length > 0) throw new Refusal(400, "some answers need attention");
  const scored = scoreForm(form, body.answers);
  const { total } = scored;
  // The answers' texts as scoreAnswers gives them, each scored as the scales engine does (mirrored when reversed).
  const result = { answers: scoreAnswers(questions, bands, body.answers).answers.map((answer, i) => ({ ...answer, score: scored.answers[i]!.score })) };
  const scoredAgainst = {
    version: SCORED_AGAINST_VERSION,
    form: { id: link.formId, title: link.formTitle, category: link.formCategory, type: link.formType },
    respondent,
    questions,
    scoreRanges: bands,
    scoring,
    subscales,
  };
  const completedAt = new Date();
  const answerIds = result.answers.map(() => randomUUID());
  const postgres = client.dialect === "postgresql";
  const webhooks = await client.all<{ events: unknown }>(`SELECT "id", "events", "formIds" FROM "Webhook" WHERE "organizationId" = ?`, [link.organizationId]);
  if (webhooks.some((webhook) => String(webhook.events).includes("submission.completed")))
    throw new Refusal(500, "the baseline queues no webhook deliveries: the bench's organization must have none");
  const flagged = scored.flags.length > 0;
  if (flagged) throw new Refusal(500, "the baseline queues no e-mails about flagged results: the bench's answers must raise no flag");
  const nameNow = (tx: SqlClient) =>
    tx.all(`SELECT "name" FROM "${kind === "student" ? "Student" : "Candidate"}" WHERE "id" = ?${postgres ? " FOR SHARE" : ""}`, [respondent.id]);
  await client.transaction(async (tx) => {
    if (postgres) await nameNow(tx);
    const claimed = await tx.run(
      `UPDATE "Submission"
          SET "isCompleted" = TRUE, "completedAt" = ?, "totalScore" = ?, "maxScore" = ?, "percentage" = ?, "scoreLabel" = ?, "scoreColor" = ?,
              "formTitle" = ?, "formVersion" = ?, "scoredAgainst" = ?${postgres ? "::jsonb" : ""}, "subscales" = ?${postgres ? "::jsonb" : ""}, "flags" = ?${postgres ? "::jsonb" : ""},
              "flaggedAt" = ?, "criticalMessage" = ?, "searchText" = ?, "updatedAt" = ?
        WHERE "id" = ? AND "isCompleted" = FALSE AND "revokedAt" IS NULL`,
      [
        completedAt,
        total.score,
        total.maxScore,
        total.percentage,
        total.label,
        total.color,
        link.formTitle,
        Number(link.formVersion),
        JSON.stringify(scoredAgainst),
        JSON.stringify(scored.subscales),
        JSON.stringify(scored.flags),
        flagged ? completedAt : null,
        flagged ? criticalMessage : null,
        submissionSearchText(respondent.name, link.formTitle),
        completedAt,
        link.id,
      ],
    );
    if (claimed !== 1) throw new Refusal(409, "already completed");
    if (!postgres) await nameNow(tx);
    const json = postgres ? "?::jsonb" : "?";
    await tx.run(
      `INSERT INTO "Answer" ("id", "submissionId", "questionId", "position", "questionText", "questionType", "optionIds", "optionTexts", "text", "score", "maxScore", "createdAt")
       VALUES ${result.answers.map(() => (postgres ? `(?, ?, ?, ?, ?, ?::"QuestionType", ${json}, ${json}, ?, ?, ?, ?)` : ANSWER_VALUES)).join(", ")}`,
      result.answers.flatMap((answer, index) => [
        answerIds[index],
        link.id,
        answer.questionId,
        answer.position,
        answer.questionText,
        answer.questionType,
        JSON.stringify(answer.optionIds),
        JSON.stringify(answer.optionTexts),
        answer.text,
        answer.score,
        answer.maxScore,
        completedAt,
      ]),
    );
    await tx.run(`DELETE FROM "SubmissionDraft" WHERE "submissionId" = ?`, [link.id]);
  });
  return { submissionId: link.id, isCompleted: true, completedAt, criticalMessage: flagged ? criticalMessage : null };
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function createBaselineServer(databaseUrl: string, sessionSecret: string) {
  const client = openSqlClient(databaseUrl);
  const send = (response: http.ServerResponse, status: number, data: unknown) => {
    const body = JSON.stringify(data);
    response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    response.end(body);
  };
  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://baseline");
      const submitted = /^\/api\/test-link\/([\w-]{20,100})\/submit$/.exec(url.pathname);
      if (submitted && request.method === "POST") {
        const address = String(request.headers["x-forwarded-for"] ?? request.socket.remoteAddress);
        return send(response, 200, await submit(client, submitted[1]!, JSON.parse(await readBody(request)), address));
      }
      if (request.method !== "GET") throw new Refusal(404, "the baseline answers no such request");
      const caller = await callerOf(client, request.headers.cookie ?? null, sessionSecret);
      if (!caller) return send(response, 401, { status: 401 });
      if (url.pathname === "/api/auth/session") return send(response, 200, sessionAnswer(caller));
      if (url.pathname === "/api/reports") return send(response, 200, await listReports(client, caller, url));
      throw new Refusal(404, "the baseline answers no such request");
    } catch (error) {
      if (error instanceof Refusal) return send(response, error.status, { status: error.status, detail: error.message });
      console.error(error);
      send(response, 500, { status: 500 });
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

// The run's secret (run.ts gives both servers the same SESSION_SECRET): the baseline checks the cookie's signature as the app does.
const secret = process.env.SESSION_SECRET;
if (!secret) throw new Error("the baseline needs SESSION_SECRET, the app's");
createBaselineServer(process.env.DATABASE_URL!, secret).listen(Number(process.env.PORT), "127.0.0.1", () =>
  console.log(`baseline listening on ${process.env.PORT}`),
);
process.once("SIGTERM", () => process.exit(0));
