import type { Actor } from "~/lib/auth/actor.server.ts";
import { forPage, pageError, staffPageActor } from "~/lib/page.server.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { getReport } from "./reports.server.ts";

/**
 * A completed report for a page (staff, same scope as getReport). Outside the scope, or while the
 * test is still pending, the friendly 404: a page never tells whether such a submission exists.
 */
export async function reportForPage(context: Parameters<typeof staffPageActor>[0], submissionId: string) {
  const actor: Actor = staffPageActor(context);
  try {
    return { actor, report: await forPage(getReport(actor, submissionId)) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) throw pageError(404);
    throw error;
  }
}
