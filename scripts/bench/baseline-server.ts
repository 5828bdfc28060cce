import { createHash } from "node:crypto";
import http from "node:http";
import { answerProblems, scoreAnswers, type ScoringQuestion } from "../../app/features/scoring/scoring.ts";
import { foldForSearch } from "../../app/lib/search.ts";
import { openSqlClient, type SqlClient } from "./sql-client.ts";

/**
 * The baseline: a bare `node:http` server that answers the benchmarked requests with the same
 * results as the app, running hand-written SQL through the same driver (better-sqlite3 or pg) and
 * nothing else: no router, no validation library, no ORM. It is the raw limit the app is measured
 * against. The SQL mirrors what the app's services ask for (session lookup included); the bench
 * checks that both servers answer with the same rows before it measures them.
 */

const SESSION_COOKIE = "remix-auth.session-token";
export const REPORTS_SEARCH_TABLE = "Submission_search";

type Caller = { userId: string; organizationId: string; role: string; name: string; email: string; locale: string };

async function callerOf(client: SqlClient, request: http.IncomingMessage): Promise<Caller | null> {
  const cookie = request.headers.cookie?.split(/;\s*/).find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) return null;
  // The app signs the cookie; the baseline only decodes it (base64 JSON before the signature).
  const signed = decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1));
  const token = JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf(".")), "base64").toString("utf8")) as string;
  const id = createHash("sha256").update(token).digest("hex");
  const rows = await client.all<Caller & { expiresAt: unknown }>(
    `SELECT u."id" AS "userId", u."organizationId", u."role", u."name", u."email", u."locale", se."expiresAt"
       FROM "Session" se JOIN "User" u ON u."id" = se."userId"
      WHERE se."id" = ? AND u."isActive" = true AND u."deletedAt" IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

const bool = (value: unknown) => value === true || value === 1;
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

export type ReportQuery = { page: number; limit: number; search?: string | undefined };

/** Reports: one page of completed submissions in the caller's organization, newest first, with the total. */
export async function queryReports(client: SqlClient, caller: Caller, query: ReportQuery) {
  const where = [`s."deletedAt" IS NULL`, `s."organizationId" = ?`, `s."isCompleted" = true`];
  const params: unknown[] = [caller.organizationId];
  if (caller.role === "TEACHER") {
    where.push(`s."assignedById" = ?`);
    params.push(caller.userId);
  }
  const term = query.search ? foldForSearch(query.search) : "";
  if (term.length >= 3 && client.dialect === "sqlite") {
    where.push(`s."rowid" IN (SELECT "rowid" FROM "${REPORTS_SEARCH_TABLE}" WHERE "${REPORTS_SEARCH_TABLE}" MATCH ?)`);
    params.push(`"${term.replaceAll('"', '""')}"`);
  } else if (term) {
    where.push(`s."searchText" LIKE ?`);
    params.push(`%${term}%`);
  }
  const condition = where.join(" AND ");
  const [rows, counted] = await Promise.all([
    client.all<Record<string, unknown>>(
      `SELECT s."id", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."scoreColor", s."formTitle",
              COALESCE(st."name", ca."name") AS "studentName", u."name" AS "assignedByName"
         FROM "Submission" s
         LEFT JOIN "Student" st ON st."id" = s."studentId"
         LEFT JOIN "Candidate" ca ON ca."id" = s."candidateId"
         JOIN "User" u ON u."id" = s."assignedById"
        WHERE ${condition}
        ORDER BY s."completedAt" DESC, s."id" DESC
        LIMIT ? OFFSET ?`,
      [...params, query.limit, (query.page - 1) * query.limit],
    ),
    client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Submission" s WHERE ${condition}`, params),
  ]);
  return {
    reports: rows.map((row) => ({
      id: row.id,
      studentName: row.studentName,
      formTitle: row.formTitle,
      completedAt: date(row.completedAt),
      totalScore: row.totalScore,
      maxScore: row.maxScore,
      percentage: row.percentage,
      scoreLabel: row.scoreLabel,
      scoreColor: row.scoreColor,
      assignedByName: row.assignedByName,
    })),
    total: Number(counted[0]!.total),
    page: query.page,
    limit: query.limit,
  };
}

async function listForms(client: SqlClient, caller: Caller, search: string) {
  const condition = `f."deletedAt" IS NULL AND f."organizationId" = ? AND f."searchTitle" LIKE ?`;
  const params = [caller.organizationId, `%${foldForSearch(search)}%`];
  const [rows, counted] = await Promise.all([
    client.all<Record<string, unknown>>(
      `SELECT f."id", f."title", f."description", f."category", f."type", f."targetAudience", f."isPublished", f."isTemplate", f."createdAt", f."updatedAt",
              (SELECT COUNT(*) FROM "Question" q WHERE q."formId" = f."id") AS "questions",
              (SELECT COUNT(*) FROM "Submission" s WHERE s."formId" = f."id" AND s."deletedAt" IS NULL) AS "submissions"
         FROM "Form" f WHERE ${condition}
        ORDER BY f."createdAt" DESC, f."id" DESC LIMIT 20 OFFSET 0`,
      params,
    ),
    client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Form" f WHERE ${condition}`, params),
  ]);
  return {
    forms: rows.map(({ questions, submissions, ...form }) => ({
      ...form,
      isPublished: bool(form.isPublished),
      isTemplate: bool(form.isTemplate),
      createdAt: date(form.createdAt),
      updatedAt: date(form.updatedAt),
      _count: { questions: Number(questions), submissions: Number(submissions) },
    })),
    total: Number(counted[0]!.total),
    page: 1,
    limit: 20,
  };
}

async function listStudents(client: SqlClient, caller: Caller, search: string) {
  const condition = `"deletedAt" IS NULL AND "organizationId" = ? AND "searchName" LIKE ?`;
  const params = [caller.organizationId, `%${foldForSearch(search)}%`];
  const [rows, counted] = await Promise.all([
    client.all<Record<string, unknown>>(
      `SELECT "id", "name", "email", "phone", "age", "grade", "gender", "status", "createdAt", "updatedAt"
         FROM "Student" WHERE ${condition} ORDER BY "createdAt" DESC, "id" DESC LIMIT 20 OFFSET 0`,
      params,
    ),
    client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Student" WHERE ${condition}`, params),
  ]);
  return {
    students: rows.map((row) => ({ ...row, createdAt: date(row.createdAt), updatedAt: date(row.updatedAt) })),
    total: Number(counted[0]!.total),
    page: 1,
    limit: 20,
  };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function submit(client: SqlClient, token: string, body: { answers: { questionId: string; optionIds?: string[] }[] }, clientAddress: string) {
  const links = await client.all<Record<string, unknown>>(
    `SELECT s."id", s."isCompleted", s."expiresAt", s."formId",
            COALESCE(st."id", ca."id") AS "respondentId", COALESCE(st."name", ca."name") AS "respondentName",
            COALESCE(st."grade", ca."grade") AS "grade", COALESCE(st."age", ca."age") AS "age",
            f."title", f."category", f."type"
       FROM "Submission" s
       JOIN "Form" f ON f."id" = s."formId" AND f."deletedAt" IS NULL
       LEFT JOIN "Student" st ON st."id" = s."studentId"
       LEFT JOIN "Candidate" ca ON ca."id" = s."candidateId"
      WHERE s."token" = ? AND s."deletedAt" IS NULL`,
    [token],
  );
  const link = links[0];
  if (!link) throw new HttpError(404, "not found");
  if (bool(link.isCompleted)) throw new HttpError(409, "already completed");
  const [questionRows, optionRows, bands] = await Promise.all([
    client.all<{ id: string; text: string; type: ScoringQuestion["type"]; required: unknown }>(
      `SELECT "id", "text", "type", "required" FROM "Question" WHERE "formId" = ? ORDER BY "position"`,
      [link.formId],
    ),
    client.all<{ id: string; text: string; score: number; questionId: string }>(
      `SELECT o."id", o."text", o."score", o."questionId" FROM "Option" o JOIN "Question" q ON q."id" = o."questionId" WHERE q."formId" = ? ORDER BY o."position"`,
      [link.formId],
    ),
    client.all<{ min: number; max: number; label: string; color: string }>(
      `SELECT "min", "max", "label", "color" FROM "ScoreRange" WHERE "formId" = ? ORDER BY "position"`,
      [link.formId],
    ),
  ]);
  const questions: ScoringQuestion[] = questionRows.map((q) => ({
    id: q.id,
    text: q.text,
    type: q.type,
    required: bool(q.required),
    options: optionRows.filter((o) => o.questionId === q.id).map((o) => ({ id: o.id, text: o.text, score: o.score })),
  }));
  // The same rate-limit statement as the app's (app/lib/auth/rate-limit.server.ts).
  const now = Date.now();
  await client.all(
    `INSERT INTO "RateLimit" ("key", "windowStart", "count") VALUES (?, ?, 1)
     ON CONFLICT ("key") DO UPDATE SET
       "count" = CASE WHEN "RateLimit"."windowStart" <= ? THEN 1 ELSE "RateLimit"."count" + 1 END,
       "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ? THEN ? ELSE "RateLimit"."windowStart" END
     RETURNING "count", "windowStart"`,
    [`test-link-submit:${clientAddress}`, now, now - 600_000, now - 600_000, now],
  );
  if (answerProblems(questions, body.answers).length > 0) throw new HttpError(400, "bad answers");
  const result = scoreAnswers(questions, bands, body.answers);
  const completedAt = new Date();
  const snapshot = {
    form: { id: link.formId, title: link.title, category: link.category, type: link.type },
    respondent: { kind: "student", id: link.respondentId, name: link.respondentName, grade: link.grade, age: link.age },
    questions,
    scoreRanges: bands,
  };
  await client.transaction(async (tx) => {
    const claimed = await tx.run(
      `UPDATE "Submission" SET "isCompleted" = true, "completedAt" = ?, "totalScore" = ?, "maxScore" = ?, "percentage" = ?,
              "scoreLabel" = ?, "scoreColor" = ?, "searchText" = ?, "formTitle" = ?, "scoredAgainst" = ?, "updatedAt" = ?
        WHERE "id" = ? AND "isCompleted" = false`,
      [
        completedAt,
        result.totalScore,
        result.maxScore,
        result.percentage,
        result.scoreLabel,
        result.scoreColor,
        foldForSearch(`${link.respondentName} ${link.title}`),
        link.title,
        JSON.stringify(snapshot),
        completedAt,
        link.id,
      ],
    );
    if (claimed !== 1) throw new HttpError(409, "already completed");
    const values = result.answers.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
    await tx.run(
      `INSERT INTO "Answer" ("id", "submissionId", "questionId", "position", "questionText", "questionType", "optionIds", "optionTexts", "text", "score", "maxScore", "createdAt") VALUES ${values}`,
      result.answers.flatMap((answer, index) => [
        `${String(link.id)}a${index}`,
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
  });
  return { submissionId: link.id, isCompleted: true, completedAt: completedAt.toISOString() };
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export type PageRenderer = (client: SqlClient, caller: Caller, url: URL) => Promise<string>;

export function createBaselineServer(databaseUrl: string, renderReportsPage?: PageRenderer) {
  const client = openSqlClient(databaseUrl);
  const send = (response: http.ServerResponse, status: number, body: string, type = "application/json; charset=utf-8") => {
    response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    response.end(body);
  };
  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://baseline");
      const submitMatch = /^\/api\/test-link\/([\w-]+)\/submit$/.exec(url.pathname);
      if (submitMatch && request.method === "POST") {
        const body = JSON.parse(await readBody(request)) as Parameters<typeof submit>[2];
        const address = String(request.headers["x-forwarded-for"] ?? request.socket.remoteAddress);
        return send(response, 200, JSON.stringify(await submit(client, submitMatch[1]!, body, address)));
      }
      const caller = await callerOf(client, request);
      if (!caller) return send(response, 401, `{"status":401}`);
      const search = url.searchParams.get("search") ?? "";
      const page = Number(url.searchParams.get("page") ?? 1);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      switch (url.pathname) {
        case "/api/reports":
          return send(response, 200, JSON.stringify(await queryReports(client, caller, { page, limit, search })));
        case "/api/forms":
          return send(response, 200, JSON.stringify(await listForms(client, caller, search)));
        case "/api/students":
          return send(response, 200, JSON.stringify(await listStudents(client, caller, search)));
        case "/en/reports":
          if (renderReportsPage) return send(response, 200, await renderReportsPage(client, caller, url), "text/html; charset=utf-8");
      }
      send(response, 404, `{"status":404}`);
    } catch (error) {
      if (error instanceof HttpError) return send(response, error.status, JSON.stringify({ status: error.status, detail: error.message }));
      console.error(error);
      send(response, 500, `{"status":500}`);
    }
  });
  server.keepAliveTimeout = 65_000;
  return { server, client };
}
