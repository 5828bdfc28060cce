import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { conflict, notFound } from "~/lib/problem.server.ts";
import { assertStaffResultsView, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import type { AcknowledgeInput } from "./flag-schemas.ts";
import { recordAudit } from "../audit/audit.server.ts";

/**
 * POST /api/submissions/:id/acknowledge (docs/api-contract.md §16, ADR 71): someone who can read
 * a flagged result says they have seen it, once. Whoever reads the report may acknowledge it (a
 * teacher their own assignments, an administrator the organization's); another organization's
 * result is 404 and a student's own login 403, as for the report. A result without a flag is
 * 409 NOT_FLAGGED (a pending link NOT_COMPLETED, as its report), and a second acknowledgement
 * 409 ALREADY_ACKNOWLEDGED: the first one stays as it was. The conditional update is the whole
 * claim, so of two at once exactly one is recorded. It changes the result (`updatedAt`), so
 * `updatedSince` reads and the cached report totals see it.
 */
export async function acknowledgeSubmission(actor: Actor, id: string, input: AcknowledgeInput, now = new Date()) {
  assertStaffResultsView(actor);
  const visible = { AND: [{ id }, visibleSubmissionsWhere(actor)] };
  const row = await db.submission.findFirst({ where: visible, select: { organizationId: true, isCompleted: true, flaggedAt: true } });
  if (!row) throw notFound("submission");
  if (!row.isCompleted) throw conflict("This test has not been completed yet.", "NOT_COMPLETED");
  if (!row.flaggedAt) throw conflict("This result has no flag to acknowledge.", "NOT_FLAGGED");
  await db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({
      where: { ...visible, acknowledgedAt: null },
      data: { acknowledgedAt: now, acknowledgedById: actor.userId, acknowledgementNote: input.note ?? null, updatedAt: now },
    });
    if (count === 0) throw conflict("This result has already been acknowledged.", "ALREADY_ACKNOWLEDGED");
    // The note may speak of the person: the event says only whether there was one.
    await recordAudit(tx, { by: actor, action: "flag.acknowledged", targetId: id, organizationId: row.organizationId, details: { note: input.note != null } });
  });
  return { submissionId: id, acknowledgedAt: now, acknowledgedBy: { id: actor.userId, name: actor.name }, acknowledgementNote: input.note ?? null };
}
