import { coerceFormValue } from "@conform-to/zod/v4/future";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { formSubmission } from "~/lib/http.server.ts";
import { forPage, pageError } from "~/lib/page.server.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { remindWaiting } from "./progress.server.ts";
import { remindWaitingBody } from "./submission-schemas.ts";

/**
 * "Remind now" posted from a page (the assignments page, a group's page): the API's own body,
 * hidden fields only, so a malformed one names nothing there is (the 404 page); the outcome is shown
 * on the card it came from.
 */
export async function remindFromPage(actor: Actor, formData: FormData) {
  const parsed = coerceFormValue(remindWaitingBody).safeParse(formSubmission(formData, ["csrfToken", "intent"]).payload);
  if (!parsed.success) throw pageError(404);
  try {
    const result = await forPage(remindWaiting(actor, parsed.data));
    return { reminded: { formId: parsed.data.formId, ...result } };
  } catch (error) {
    // Past an e-mail quota: no reminder was queued; the card says so, and when to try again.
    if (!(error instanceof ApiError && error.code === "MAIL_QUOTA")) throw error;
    const minutes = String(Math.max(1, Math.ceil(Number(error.headers?.["Retry-After"] ?? 60) / 60)));
    return { reminded: { formId: parsed.data.formId, queued: 0, noEmail: 0, recentlySent: 0, mailQuotaMinutes: minutes } };
  }
}
