import { data } from "react-router";
import { translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldProblem, fieldTexts, issueTexts, type FieldProblem } from "~/lib/problem.server.ts";
import { questionImageFields } from "./form-image-schemas.ts";
import { setQuestionImage } from "./form-images.server.ts";

/** What the editor shows under a question (or an option) whose image was refused: the messages by field (`file`, `imageAlt`). */
export type QuestionImageRefusal = { image: { questionId: string; optionId?: string | undefined; fieldErrors: Record<string, string> } };

/**
 * The editor's small image form of one question or option (intent `image`, multipart: `file`,
 * `imageAlt`, `questionId` and, for an option, `optionId`), or its "Remove the image" button
 * (intent `removeImage`): the same service as the API, then the editor again with a message, or the
 * item's form with its errors.
 */
export async function questionImagePost(actor: Actor, locale: Locale, formData: FormData, formId: string) {
  const t = translations(locale, actor.organizationKind);
  const questionId = String(formData.get("questionId") ?? "");
  const optionId = formData.has("optionId") ? String(formData.get("optionId")) : undefined;
  const refuse = (errors: Record<string, string>, status: number) =>
    data<QuestionImageRefusal>({ image: { questionId, optionId, fieldErrors: errors } }, { status });
  const remove = formData.get("intent") === "removeImage";
  const parsed = questionImageFields.safeParse({ questionId, optionId, imageAlt: remove ? "-" : String(formData.get("imageAlt") ?? "") });
  const file = formData.get("file");
  const chosen = file instanceof File && !(file.size === 0 && file.name === "");
  const problems: Record<string, string> = parsed.success ? {} : issueTexts(t, parsed.error.issues);
  if (!remove && !chosen) Object.assign(problems, fieldTexts(t, [fieldProblem("file", "chooseImage")] satisfies FieldProblem[]));
  if (Object.keys(problems).length > 0) return refuse(problems, 400);
  try {
    await forPage(setQuestionImage(actor, formId, { questionId, optionId }, remove ? null : { file: file as File, alt: parsed.data!.imageAlt }));
  } catch (error) {
    if (error instanceof ApiError && error.errors?.length) return refuse(fieldTexts(t, error.errors), error.status);
    throw error;
  }
  return redirectWithFlash(paths.form(locale, formId), { kind: "success", key: "saved" });
}
