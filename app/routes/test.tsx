import { useEffect, useRef, useState } from "react";
import { Form, data, redirect, useFetcher, useNavigation, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/test";
import { LanguageSwitcher } from "~/components/language-switcher.tsx";
import { openTestLink, saveTestDraft, submitTestLink } from "~/features/submissions/test-link.server.ts";
import { translations } from "~/i18n/dictionaries.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { answerField, answeredInForm, answersFrom, answersValidation, draftDefaults, errorsByQuestion } from "~/features/submissions/test-link-page.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { formSubmission } from "~/lib/http.server.ts";
import { useForm } from "@conform-to/react/future";
import { type PageResult, pageFormOptions } from "~/components/page-form.ts";

/**
 * The respondent's page: a plain HTML form that works without JavaScript, posting to this route's
 * action, which submits through the same service as POST /api/test-link/:token/submit, or saves
 * the answers so far ("Save and finish later", and with JavaScript as the respondent goes) through
 * the same service as PUT /api/test-link/:token/draft.
 */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ loaderData, params }) => [
  { title: loaderData && "test" in loaderData ? loaderData.test.form.title : translations(resolveLocale(params.locale)).testLink.title },
  { name: "robots", content: "noindex" },
];

type Unavailable = { state: "completed" | "expired" | "revoked" | "closed" | "not-found" };

/** Saving a draft changes nothing the page shows: no need to load the test again after each save. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "save" ? false : defaultShouldRevalidate;

/** Why a link takes no answers, by the service's error code. */
const UNAVAILABLE: Record<string, Unavailable["state"]> = {
  ALREADY_COMPLETED: "completed",
  LINK_EXPIRED: "expired",
  LINK_REVOKED: "revoked",
  FORM_CLOSED: "closed",
};
type Test = Awaited<ReturnType<typeof openTestLink>>;
type Question = Test["form"]["questions"][number];

export async function loader({ params }: Route.LoaderArgs) {
  try {
    const test = await openTestLink(params.token);
    return { test, validation: answersValidation(test, translations(resolveLocale(params.locale))) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const state = UNAVAILABLE[error.code] ?? "not-found";
    return data<Unavailable>({ state }, { status: state === "completed" ? 200 : error.status, headers: PRIVATE_HEADERS });
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  // Built from the params: with JavaScript the request URL is the `.data` endpoint, not the page.
  const page = `/${resolveLocale(params.locale)}/test/${params.token}`;
  const formData = await request.formData();
  let test: Awaited<ReturnType<typeof openTestLink>>;
  try {
    test = await openTestLink(params.token);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A second submit (another tab, the back button): say that these answers were not recorded.
    if (error.code === "ALREADY_COMPLETED" && formData.get("intent") !== "save") return alreadyAnswered();
    // Expired, withdrawn, closed or gone meanwhile: the page itself explains it.
    throw redirect(page);
  }
  const answers = answersFrom(test.form.questions, formData);
  const t = translations(resolveLocale(params.locale));
  if (formData.get("intent") === "save") {
    try {
      const saved = await saveTestDraft(params.token, { answers });
      return data({ saved }, { headers: PRIVATE_HEADERS });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status !== 400) throw redirect(page);
      const fieldErrors = errorsByQuestion(t, error.errors ?? [], answers);
      return data({ result: pageResult(formSubmission(formData), { fieldErrors, formError: null }) }, { status: 400, headers: PRIVATE_HEADERS });
    }
  }
  try {
    await submitTestLink(params.token, { answers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "ALREADY_COMPLETED") return alreadyAnswered();
    if (error.status !== 400) throw redirect(page);
    const fieldErrors = errorsByQuestion(t, error.errors ?? [], answers);
    return data({ result: pageResult(formSubmission(formData), { fieldErrors, formError: null }) }, { status: 400, headers: PRIVATE_HEADERS });
  }
  // Post/redirect/get: reloading the end page never submits again.
  throw redirect(page, { headers: PRIVATE_HEADERS });
}

const alreadyAnswered = () => data({ already: true as const }, { status: 409, headers: PRIVATE_HEADERS });

export default function TestPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT().testLink;
  if (actionData && "already" in actionData) return <Outcome title={t.alreadyTitle} text={t.alreadyText} />;
  if (!("test" in loaderData)) {
    const [title, text] = (
      {
        completed: [t.doneTitle, t.doneText],
        expired: [t.expiredTitle, t.expiredText],
        revoked: [t.revokedTitle, t.revokedText],
        closed: [t.closedTitle, t.closedText],
        "not-found": [t.notFoundTitle, t.notFoundText],
      } satisfies Record<Unavailable["state"], [string, string]>
    )[loaderData.state];
    return <Outcome title={title} text={text} />;
  }
  return (
    <TestForm
      test={loaderData.test}
      validation={loaderData.validation}
      result={actionData && "result" in actionData ? actionData.result : undefined}
      saved={Boolean(actionData && "saved" in actionData)}
    />
  );
}

/** What happened to the link, and what to do (done, already answered, expired, withdrawn, closed, unknown). */
function Outcome({ title, text }: { title: string; text: string }) {
  return (
    <>
      <RespondentHeader />
      <main className="mx-auto max-w-xl px-5 py-16 text-center">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-3 text-slate-700">{text}</p>
      </main>
    </>
  );
}

/** How long after the last change the answers are saved, with JavaScript. */
const AUTOSAVE_DELAY_MS = 1500;

/**
 * Saves the answers as the respondent goes (with JavaScript): a change waits for a quiet moment,
 * then the form's fields go to the action with `intent=save`, through a fetcher so the page stays.
 */
function useAutosave(formRef: React.RefObject<HTMLFormElement | null>) {
  const fetcher = useFetcher<typeof action>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const formData = new FormData(formRef.current);
      formData.set("intent", "save");
      void fetcher.submit(formData, { method: "post" });
    }, AUTOSAVE_DELAY_MS);
  };
  const savedAt = fetcher.data && "saved" in fetcher.data ? new Date(fetcher.data.saved.savedAt) : null;
  return { schedule, saving: fetcher.state !== "idle", savedAt };
}

/** The test itself: one Conform form, each required question checked in the browser as the server checks it. */
function TestForm({ test, validation, result, saved }: { test: Test; validation: ClientValidation; result: PageResult | undefined; saved: boolean }) {
  const t = useT().testLink;
  const format = useFormat();
  const locale = useLocale();
  const navigation = useNavigation();
  const { form, fields } = useForm(pageFormOptions(validation, result, draftDefaults(test)));
  const formRef = useRef<HTMLFormElement>(null);
  const [answered, setAnswered] = useState(test.progress.answered);
  const autosave = useAutosave(formRef);
  const onChange = () => {
    if (formRef.current) setAnswered(answeredInForm(test.form.questions, formRef.current));
    autosave.schedule();
  };
  const progressText = t.progress(format.number(answered), format.number(test.progress.total));
  const errorOf = (question: Question) => fields[answerField(question.id)]?.errors?.[0];
  const errorIds = test.form.questions.filter((q) => errorOf(q));
  return (
    <>
      <RespondentHeader />
      <main className="mx-auto max-w-2xl px-4 pt-2 pb-8 sm:px-6 sm:pb-12">
        <p className="text-sm font-medium text-indigo-800">{t.hello(test.respondent.name)}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{test.form.title}</h1>
        {test.form.description ? <p className="mt-3 whitespace-pre-line text-slate-700">{test.form.description}</p> : null}
        <p className="mt-3 text-sm text-slate-600">{t.intro}</p>

        {saved ? (
          <div role="status" className="mt-6 rounded-md border border-emerald-300 bg-emerald-50 p-4 text-emerald-950">
            <p className="font-semibold">{t.savedTitle}</p>
            <p className="mt-1 text-sm">{t.savedText}</p>
          </div>
        ) : null}

        {/* Stays at the top while scrolling: how far along the respondent is. */}
        <div className="sticky top-0 z-10 -mx-4 mt-6 bg-slate-50/95 px-4 py-2 sm:-mx-6 sm:px-6">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span id="test-progress-label" className="font-medium text-slate-800">
              {progressText}
            </span>
            <span aria-live="polite" className="text-slate-600">
              {autosave.saving
                ? t.savingDraft
                : autosave.savedAt
                  ? t.autosaved(new Intl.DateTimeFormat(locale, { timeStyle: "short" }).format(autosave.savedAt))
                  : null}
            </span>
          </div>
          <progress
            aria-labelledby="test-progress-label"
            value={answered}
            max={Math.max(test.progress.total, 1)}
            className="mt-1 block h-2 w-full appearance-none overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:bg-indigo-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-700"
          />
        </div>

        {errorIds.length > 0 ? (
          <div role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
            <p className="font-semibold">{t.fixErrors}</p>
            <ul className="mt-2 list-disc pl-5">
              {errorIds.map((q) => (
                <li key={q.id}>
                  <a className="underline" href={`#question-${q.id}`}>
                    {t.question(test.form.questions.indexOf(q) + 1)}: {errorOf(q)}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <Form method="post" className="mt-6 space-y-6" {...form.props} ref={formRef} onChange={onChange}>
          {test.form.questions.map((question, index) => {
            const field = fields[answerField(question.id)];
            const error = field?.errors?.[0];
            const errorId = `error-${question.id}`;
            const chosen = field?.defaultOptions ?? [];
            const legend = (
              <>
                <span className="text-slate-500">{index + 1}. </span>
                {question.text}
                {question.required ? (
                  <span className="text-red-700" aria-hidden="true">
                    {" "}
                    *
                  </span>
                ) : null}
                {question.required ? <span className="sr-only">{` (${t.required})`}</span> : null}
              </>
            );
            const box = `rounded-lg border bg-white p-4 shadow-sm sm:p-5 ${error ? "border-red-400" : "border-slate-200"}`;
            if (question.type === "TEXT") {
              return (
                <div key={question.id} id={`question-${question.id}`} className={box}>
                  <label htmlFor={`q_${question.id}`} className="block font-medium">
                    {legend}
                  </label>
                  <textarea
                    id={`q_${question.id}`}
                    name={`q_${question.id}`}
                    rows={4}
                    defaultValue={field?.defaultValue ?? ""}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    aria-required={question.required || undefined}
                    className="mt-3 block w-full rounded-md border border-slate-400 px-3 py-2"
                    placeholder={t.answerHere}
                  />
                  {error ? (
                    <p id={errorId} className="mt-2 text-sm font-medium text-red-800">
                      {error}
                    </p>
                  ) : null}
                </div>
              );
            }
            const inputType = question.type === "MULTIPLE_CHOICE" ? "checkbox" : "radio";
            return (
              <fieldset key={question.id} id={`question-${question.id}`} className={box} aria-describedby={error ? errorId : undefined}>
                <legend className="float-left w-full font-medium">{legend}</legend>
                <div className={`clear-left pt-3 ${question.type === "SCALE" ? "flex flex-wrap gap-2" : "space-y-2"}`}>
                  {question.options.map((option) => (
                    <label
                      key={option.id}
                      className={`flex cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 hover:bg-slate-50 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50 ${question.type === "SCALE" ? "min-w-14 justify-center" : ""}`}
                    >
                      <input
                        type={inputType}
                        name={`q_${question.id}`}
                        value={option.id}
                        defaultChecked={chosen.includes(option.id)}
                        className="size-5 accent-indigo-700"
                      />
                      <span>{option.text}</span>
                    </label>
                  ))}
                </div>
                {error ? (
                  <p id={errorId} className="mt-2 text-sm font-medium text-red-800">
                    {error}
                  </p>
                ) : null}
              </fieldset>
            );
          })}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <button
              type="submit"
              disabled={navigation.state === "submitting"}
              className="w-full rounded-md bg-indigo-700 px-5 py-3 text-lg font-semibold text-white hover:bg-indigo-800 disabled:opacity-60 sm:w-auto"
            >
              {navigation.state === "submitting" && navigation.formData?.get("intent") !== "save" ? t.sending : t.send}
            </button>
            {/* Without JavaScript the way to keep the answers for later; with it, they are saved anyway. */}
            <button
              type="submit"
              name="intent"
              value="save"
              formNoValidate
              disabled={navigation.state === "submitting"}
              className="w-full rounded-md border border-slate-300 bg-white px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60 sm:w-auto"
            >
              {navigation.state === "submitting" && navigation.formData?.get("intent") === "save" ? t.savingDraft : t.saveLater}
            </button>
          </div>
        </Form>
      </main>
    </>
  );
}

/** The respondent may read the test in another language: the same link in es, en or pt-BR. */
function RespondentHeader() {
  return (
    <header className="mx-auto flex max-w-2xl justify-end px-4 pt-4 sm:px-6">
      <LanguageSwitcher />
    </header>
  );
}
