import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import type { Change } from "../scoring/change.ts";
import { changesOfRows, constantsOf, formChangeSelect } from "../scoring/change.server.ts";
import type { ScoreDisplay } from "../scoring/score-display.ts";
import { capturedDisplays } from "../scoring/score-display.server.ts";
import { subscaleResults } from "../scoring/scale-schemas.ts";
import { assertStaffResultsView, visibleSubmissionsSql } from "../submissions/submission-scope.server.ts";

/**
 * A group's results at a glance: for each of its forms, every member's latest
 * completed result (the band as captured, the percentage, each subscale's score, its flag, its
 * change over time), and how those latest results spread over the bands: a grade book of the
 * class. Over what the caller may see; the members' results on those forms are ranked by the
 * database, and only each member's latest, the one before it and the first are read.
 */

/** `percentage` is null for a total too many missing answers left unscored; `subscales` as captured; the flag and its acknowledgement (§16). */
export type LatestResult = {
  completedAt: Date;
  flaggedAt: Date | null;
  acknowledgedAt: Date | null;
  /** How the total is shown, as captured (ADR 79), with what it shows. */
  display: ScoreDisplay;
  totalScore: number | null;
  maxScore: number | null;
  percentage: number | null;
  scoreLabel: string | null;
  scoreColor: string | null;
  subscales: { key: string; name: string; score: number | null; change: Change }[];
  /** Its change over time within the member's results on the form (docs/api-contract.md §18). */
  change: Change;
};
export type BandCount = { label: string | null; color: string | null; count: number };
export type GroupResults = {
  /** Per form: the members' latest results by band, as captured. */
  bands: Record<string, BandCount[]>;
  /** Per member (`student:id` or `candidate:id`) and form, the latest result. */
  latest: Record<string, Record<string, LatestResult>>;
};

export async function groupResults(actor: Actor, groupId: string, formIds: string[]): Promise<GroupResults> {
  assertStaffResultsView(actor);
  const latest: GroupResults["latest"] = {};
  const bands: GroupResults["bands"] = {};
  const shown = new Map<string, LatestResult>();
  if (formIds.length === 0) return { bands, latest };
  // Per member and form: the latest result, the one before it and the first (what the latest's
  // change is made from), ranked by the database so that no other result leaves it.
  const ranked = await db.$queryRaw<{ id: string }[]>`
    SELECT ranked."id" FROM (
      SELECT s."id",
        ROW_NUMBER() OVER (PARTITION BY COALESCE(s."studentId", s."candidateId"), s."formId" ORDER BY s."completedAt" DESC, s."id" DESC) AS "rank",
        ROW_NUMBER() OVER (PARTITION BY COALESCE(s."studentId", s."candidateId"), s."formId" ORDER BY s."completedAt" ASC, s."id" ASC) AS "position"
      FROM "Submission" AS s
      WHERE ${visibleSubmissionsSql(actor, "s")} AND s."isCompleted" = TRUE AND s."formId" IN (${Prisma.join(formIds)})
        AND (s."studentId" IN (SELECT m."studentId" FROM "GroupMember" AS m WHERE m."groupId" = ${groupId})
          OR s."candidateId" IN (SELECT m."candidateId" FROM "GroupMember" AS m WHERE m."groupId" = ${groupId}))
    ) AS ranked
    WHERE ranked."rank" <= 2 OR ranked."position" = 1`;
  const rows = await db.submission.findMany({
    where: { id: { in: ranked.map((row) => row.id) } },
    select: {
      id: true,
      studentId: true,
      candidateId: true,
      formId: true,
      completedAt: true,
      totalScore: true,
      maxScore: true,
      percentage: true,
      scoreLabel: true,
      scoreColor: true,
      subscales: true,
      flaggedAt: true,
      acknowledgedAt: true,
      form: { select: formChangeSelect },
    },
    orderBy: [{ completedAt: "desc" }, { id: "desc" }],
  });
  const constants = new Map(rows.map((row) => [row.formId, constantsOf(row.form)]));
  const changes = changesOfRows(
    rows.map((row) => ({ ...row, person: row.studentId ?? row.candidateId ?? "", completedAt: row.completedAt! })),
    (formId) => constants.get(formId)!,
  );
  for (const row of rows) {
    const key = row.studentId ? `student:${row.studentId}` : `candidate:${row.candidateId}`;
    const forms = (latest[key] ??= {});
    // Newest first: the first one read is the latest.
    if (forms[row.formId] || !row.completedAt) continue;
    shown.set(
      row.id,
      (forms[row.formId] = {
        completedAt: row.completedAt,
        flaggedAt: row.flaggedAt,
        acknowledgedAt: row.acknowledgedAt,
        display: "PERCENT",
        totalScore: row.totalScore,
        maxScore: row.maxScore,
        percentage: row.percentage,
        scoreLabel: row.scoreLabel,
        scoreColor: row.scoreColor,
        subscales: subscaleResults.parse(row.subscales ?? []).map(({ key, name, score }, index) => ({
          key,
          name,
          score,
          change: changes.get(row.id)!.subscales[index]!.change,
        })),
        change: changes.get(row.id)!.change,
      }),
    );
    const counts = (bands[row.formId] ??= []);
    const band = counts.find((entry) => entry.label === row.scoreLabel && entry.color === row.scoreColor);
    if (band) band.count++;
    else counts.push({ label: row.scoreLabel, color: row.scoreColor, count: 1 });
  }
  // How each shown total reads, from its own snapshot: one field of it, for the latest results only.
  for (const [id, display] of await capturedDisplays([...shown.keys()])) shown.get(id)!.display = display;
  return { bands, latest };
}
