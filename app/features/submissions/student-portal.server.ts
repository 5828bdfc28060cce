import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forbidden } from "~/lib/problem.server.ts";
import { showsResultTo, visibleSubmissionsWhere } from "./submission-scope.server.ts";
import { isWaiting, submissionStatus, STATUS_SELECT } from "./submission-status.ts";
import { testLinkUrl, waitingWhere } from "./submissions.server.ts";

/** At most this many of a student's tests are listed, newest first. */
const LISTED = 200;

/**
 * A signed-in student's own tests (docs/api-contract.md §12): those still to answer, each with its link, and
 * those answered, with the date; the score and band only where the respondent-visibility rule
 * allows it (showsResultTo: the form's `showResultToRespondent`). Only a STUDENT login linked to a
 * student record has any; staff get 403.
 */
export async function studentAssignments(actor: Actor, options: { locale: Locale; now?: Date }) {
  if (actor.role !== "STUDENT") throw forbidden("Only a student's own login has assignments.");
  const now = options.now ?? new Date();
  const rows = await db.submission.findMany({
    where: { AND: [visibleSubmissionsWhere(actor), { form: { deletedAt: null } }, { OR: [waitingWhere(now), { isCompleted: true }] }] },
    select: {
      id: true,
      token: true,
      ...STATUS_SELECT,
      completedAt: true,
      createdAt: true,
      formTitle: true,
      totalScore: true,
      maxScore: true,
      percentage: true,
      scoreLabel: true,
      scoreColor: true,
      form: { select: { title: true, isPublished: true, showResultToRespondent: true, instrument: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LISTED,
  });
  return {
    assignments: rows.map((row) => {
      const status = submissionStatus(row, now);
      const showResult = row.isCompleted && showsResultTo(actor, row);
      return {
        id: row.id,
        // A completed test keeps the title it was answered under.
        form: { title: row.isCompleted ? (row.formTitle ?? row.form.title) : row.form.title },
        status,
        assignedAt: row.createdAt,
        expiresAt: row.expiresAt,
        completedAt: row.completedAt,
        // A closed form's link answers 410 until it is published again: nothing to open meanwhile.
        url: isWaiting(status) && row.form.isPublished ? testLinkUrl(row.token, options.locale, row.form.instrument) : null,
        result: showResult
          ? {
              // Null for a total too many missing answers left unscored (docs/api-contract.md §15).
              totalScore: row.totalScore,
              maxScore: row.maxScore ?? 0,
              percentage: row.percentage,
              scoreLabel: row.scoreLabel,
              scoreColor: row.scoreColor,
            }
          : null,
      };
    }),
  };
}
