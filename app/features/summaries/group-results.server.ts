import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import type { ScoreDisplay } from "../scoring/score-display.ts";
import { capturedDisplays } from "../scoring/score-display.server.ts";
import { subscaleResults } from "../scoring/scale-schemas.ts";
import { assertStaffResultsView, inGroupWhere, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";

/**
 * A group's results at a glance: for each of its forms, every member's latest
 * completed result (the band as captured, the percentage, each subscale's score, its flag), and how those latest results spread
 * over the bands: a grade book of the class. Over what the caller may see; read in one query of
 * the members' completed results on those forms, newest first.
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
  subscales: { key: string; name: string; score: number | null }[];
};
export type BandCount = { label: string | null; color: string | null; count: number };
export type GroupResults = {
  /** Per form: the members' latest results by band, as captured. */
  bands: Record<string, BandCount[]>;
  /** Per member (`student:id` or `candidate:id`) and form, the latest result. */
  latest: Record<string, Record<string, LatestResult>>;
};

/** At most this many results are read: a class of 40 with a dozen attempts on each of 10 forms. */
const RESULTS_READ = 5000;

export async function groupResults(actor: Actor, groupId: string, formIds: string[]): Promise<GroupResults> {
  assertStaffResultsView(actor);
  const latest: GroupResults["latest"] = {};
  const bands: GroupResults["bands"] = {};
  const shown = new Map<string, LatestResult>();
  if (formIds.length === 0) return { bands, latest };
  const rows = await db.submission.findMany({
    where: { AND: [visibleSubmissionsWhere(actor), inGroupWhere(groupId), { isCompleted: true, formId: { in: formIds } }] },
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
    },
    orderBy: [{ completedAt: "desc" }, { id: "desc" }],
    take: RESULTS_READ,
  });
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
        subscales: subscaleResults.parse(row.subscales ?? []).map(({ key, name, score }) => ({ key, name, score })),
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
