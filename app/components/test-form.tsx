import { useForm } from "@conform-to/react/future";
import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { LanguageSwitcher } from "~/components/language-switcher.tsx";
import { type PageResult, pageFormOptions } from "~/components/page-form.ts";
import { ScalePoints } from "~/components/scale-points.tsx";
import { FormImage } from "~/components/form-image.tsx";
import { answerField, answeredInForm, draftDefaults, type TestView } from "~/features/submissions/test-link-page.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";

/**
 * The test as its respondent sees it, for the public link (app/routes/test.tsx) and for a
 * teacher's preview (app/routes/forms.$id.preview.tsx): the same questions, the same checks, the
 * same look. Only the respondent's page saves drafts.
 */
type Question = TestView["form"]["questions"][number];

/** What happened to the link, and what to do (done, already answered, expired, withdrawn, closed, unknown). */
export function Outcome({
  title,
  text,
  notice,
  privacyNotice,
  children,
}: {
  title: string;
  text: string;
  notice?: string | null;
  privacyNotice?: string | null | undefined;
  /** What follows the message and the notice: a completed link's review, say. */
  children?: React.ReactNode;
}) {
  const t = useT().testLink;
  return (
    <>
      <RespondentHeader />
      <main className="mx-auto max-w-xl px-5 py-16 text-center">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-3 text-slate-700">{text}</p>
        {/* The form's critical message, when the answers called for it (docs/api-contract.md §16): its own words, nothing about why. */}
        {notice ? (
          <section
            aria-labelledby="notice-title"
            className="mt-8 rounded-lg border-2 border-amber-400 bg-amber-50 p-5 text-left text-amber-950"
            data-testid="critical-message"
          >
            <h2 id="notice-title" className="text-lg font-semibold">
              {t.noticeTitle}
            </h2>
            <p className="mt-2 whitespace-pre-line wrap-anywhere">{notice}</p>
          </section>
        ) : null}
        {children}
        <PrivacyNotice text={privacyNotice} className="mt-10 text-left" />
      </main>
    </>
  );
}

/**
 * The organization's privacy notice (docs/api-contract.md §21), already in the respondent's
 * language: folded under its title, so that on a phone it never stands between them and the test.
 */
function PrivacyNotice({ text, className }: { text: string | null | undefined; className: string }) {
  const t = useT().testLink;
  if (!text) return null;
  return (
    <details className={`rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 ${className}`} data-testid="privacy-notice">
      <summary className="cursor-pointer font-medium text-slate-900">{t.privacyNoticeTitle}</summary>
      <p className="mt-3 whitespace-pre-line wrap-anywhere">{text}</p>
    </details>
  );
}

/** How long after the last change the answers are saved, with JavaScript. */
const AUTOSAVE_DELAY_MS = 1500;

/**
 * Saves the answers as the respondent goes (with JavaScript): a change waits for a quiet moment,
 * then the form's fields go to the action with `intent=save`, through a fetcher so the page stays.
 */
function useAutosave(formRef: React.RefObject<HTMLFormElement | null>, enabled: boolean) {
  const fetcher = useFetcher<{ saved?: { savedAt: string | Date } }>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const schedule = () => {
    if (!enabled) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const formData = new FormData(formRef.current);
      formData.set("intent", "save");
      void fetcher.submit(formData, { method: "post" });
    }, AUTOSAVE_DELAY_MS);
  };
  const savedAt = fetcher.data?.saved ? new Date(fetcher.data.saved.savedAt) : null;
  return { schedule, saving: fetcher.state !== "idle", savedAt };
}

/**
 * The test itself: one Conform form, each required question checked in the browser as the server
 * checks it. `preview`: a teacher's look at it (no saving; a banner says nothing is stored).
 */
export function TestForm({
  test,
  validation,
  result,
  saved = false,
  preview,
  privacyNotice,
}: {
  test: TestView;
  validation: ClientValidation;
  result: PageResult | undefined;
  saved?: boolean;
  preview?: { title: string; text: string; checked: boolean; checkedText: string };
  /** The organization's privacy notice in the page's language (the respondent's page only). */
  privacyNotice?: string | null;
}) {
  const t = useT().testLink;
  const format = useFormat();
  const locale = useLocale();
  const navigation = useNavigation();
  const { form, fields } = useForm(pageFormOptions(validation, result, draftDefaults(test)));
  const formRef = useRef<HTMLFormElement>(null);
  const [answered, setAnswered] = useState(test.progress.answered);
  const autosave = useAutosave(formRef, !preview);
  const onChange = () => {
    if (formRef.current) setAnswered(answeredInForm(test.form.questions, formRef.current));
    autosave.schedule();
  };
  const progressText = t.progress(format.number(answered), format.number(test.progress.total));
  const questionFields = test.form.questions.map((question: Question) => answerField(question.id));
  // The signed-in shell around a preview has its own main landmark and language switcher.
  const Main = preview ? "div" : "main";
  return (
    <>
      {preview ? null : <RespondentHeader />}
      <Main className="mx-auto max-w-2xl px-4 pt-2 pb-8 sm:px-6 sm:pb-12">
        {preview ? (
          <div role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
            <p className="font-semibold">{preview.title}</p>
            <p className="mt-1 text-sm">{preview.text}</p>
            {preview.checked ? <p className="mt-2 text-sm font-medium">{preview.checkedText}</p> : null}
          </div>
        ) : null}
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

        <ErrorSummary
          form={form}
          title={t.fixErrors}
          className="mt-6"
          fields={questionFields}
          label={(name) => t.question(questionFields.indexOf(name) + 1)}
          target={(name) => `question-${test.form.questions[questionFields.indexOf(name)]?.id}`}
        />

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
                  <FormImage image={question.image} className="mt-3" />
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
            const optionList = (
              <div className="clear-left space-y-2 pt-3">
                {question.options.map((option) => (
                  <label
                    key={option.id}
                    className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 hover:bg-slate-50 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50"
                  >
                    <input
                      type={inputType}
                      name={`q_${question.id}`}
                      value={option.id}
                      defaultChecked={chosen.includes(option.id)}
                      className="size-5 accent-indigo-700"
                    />
                    <span className="min-w-0">
                      {option.text}
                      <FormImage image={option.image} className="mt-2 max-h-48" />
                    </span>
                  </label>
                ))}
              </div>
            );
            return (
              <fieldset key={question.id} id={`question-${question.id}`} className={box} aria-describedby={error ? errorId : undefined}>
                <legend className="float-left w-full font-medium">{legend}</legend>
                <FormImage image={question.image} className="clear-left pt-3" />
                {question.type === "SCALE" ? (
                  <ScalePoints questionId={question.id} scale={question.scale} options={question.options} chosen={chosen} fallback={optionList} />
                ) : (
                  optionList
                )}
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
            {preview ? null : (
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
            )}
          </div>
        </Form>
        <PrivacyNotice text={privacyNotice} className="mt-10" />
      </Main>
    </>
  );
}

/** The respondent may read the test in another language: the same link in es, en or pt-BR. */
export function RespondentHeader() {
  return (
    <header className="mx-auto flex max-w-2xl justify-end px-4 pt-4 sm:px-6">
      <LanguageSwitcher />
    </header>
  );
}
