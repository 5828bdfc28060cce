import { data } from "react-router";
import { type Dictionary, translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, parsePageForm } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, pageErrors } from "~/lib/problem.server.ts";
import { instrumentDetailsBody } from "../forms/form-schemas.ts";
import { type FormDetail, updateForm } from "../forms/forms.server.ts";
import { instrumentByKey } from "./library.ts";

/**
 * The editor of a form installed from the instrument library (docs/api-contract.md §17, ADR 72):
 * a notice naming the instrument and its licence, a form for what its lock leaves open (title,
 * description, critical message), and its items, scoring and change-over-time constants to read.
 */
export function installedFormEditor(form: FormDetail, t: Dictionary) {
  if (!form.instrument) return null;
  const { key, version, language } = form.instrument;
  const definition = instrumentByKey(key);
  return {
    notice: { key, version, language, name: definition?.name ?? key, licence: definition?.licence ?? null, inLibrary: definition !== null },
    content: {
      questions: form.questions,
      scoreRanges: form.scoreRanges,
      subscales: form.subscales,
      scoring: form.scoring,
      change: {
        reliableChange: form.reliableChange,
        remissionBelow: form.remissionBelow,
        lowerIsBetter: form.lowerIsBetter,
        // The sources are the definition's as it is now: they say where this form's values came from
        // only when it was installed from the same version.
        source: definition?.version === version ? (definition.changeSource ?? null) : null,
      },
    },
    defaults: { title: form.title, description: form.description ?? "", criticalMessage: form.criticalMessage ?? "" },
    validation: clientValidation(instrumentDetailsBody, t),
  };
}

export type InstalledFormEditor = NonNullable<ReturnType<typeof installedFormEditor>>;

/** Its details' post: saved through `updateForm`, whose lock refuses anything else. */
export async function installedFormDetailsPost(actor: Actor, locale: Locale, formData: FormData, formId: string) {
  const t = translations(locale, actor.organizationKind);
  const form = parsePageForm(formData, instrumentDetailsBody, t, { skip: ["intent"], clearWhenEmpty: ["description", "criticalMessage"] });
  if (!form.ok) return data(pageResult(form.submission, { fieldErrors: form.fieldErrors, formError: null }), { status: 400 });
  try {
    await forPage(updateForm(actor, formId, form.value));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return data(pageResult(form.submission, pageErrors(t, error)), { status: error.status });
  }
  return redirectWithFlash(paths.form(locale, formId), { kind: "success", key: "saved" });
}
