import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/test";
import { LanguageSwitcher } from "~/components/language-switcher.tsx";
import { openTestLink, submitTestLink } from "~/features/submissions/test-link.server.ts";
import { translations } from "~/i18n/dictionaries.ts";
import { useT } from "~/i18n/hooks.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { answerField, answersFrom, answersValidation, errorsByQuestion } from "~/features/submissions/test-link-page.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { formSubmission } from "~/lib/http.server.ts";
import { useForm } from "@conform-to/react/future";
import { type PageResult, pageFormOptions } from "~/components/page-form.ts";

/**
 * The respondent's page: a plain HTML form that works without JavaScript, posting to this route's
 * action, which submits through the same service as POST /api/test-link/:token/submit.
 */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ loaderData, params }) => [
  { title: loaderData && "test" in loaderData ? loaderData.test.form.title : translations(resolveLocale(params.locale)).testLink.title },
  { name: "robots", content: "noindex" },
];

type Unavailable = { state: "completed" | "expired" | "revoked" | "closed" | "not-found" };

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
    // Completed, expired or gone meanwhile: the page itself explains it.
    if (error instanceof ApiError) throw redirect(page);
    throw error;
  }
  const answers = answersFrom(test.form.questions, formData);
  try {
    await submitTestLink(params.token, { answers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status !== 400) throw redirect(page);
    const fieldErrors = errorsByQuestion(translations(resolveLocale(params.locale)), error.errors ?? [], answers);
    return data({ result: pageResult(formSubmission(formData), { fieldErrors, formError: null }) }, { status: 400, headers: PRIVATE_HEADERS });
  }
  // Post/redirect/get: reloading the end page never submits again.
  throw redirect(page, { headers: PRIVATE_HEADERS });
}

export default function TestPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT().testLink;
  if (!("test" in loaderData)) {
    const [title, text] = {
      completed: [t.doneTitle, t.doneText],
      expired: [t.expiredTitle, t.expiredText],
      revoked: [t.revokedTitle, t.revokedText],
      closed: [t.closedTitle, t.closedText],
      "not-found": [t.notFoundTitle, t.notFoundText],
    }[loaderData.state];
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
  return <TestForm test={loaderData.test} validation={loaderData.validation} result={actionData?.result} />;
}

/** The test itself: one Conform form, each required question checked in the browser as the server checks it. */
function TestForm({ test, validation, result }: { test: Test; validation: ClientValidation; result: PageResult | undefined }) {
  const t = useT().testLink;
  const navigation = useNavigation();
  const { form, fields } = useForm(pageFormOptions(validation, result));
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

        <Form method="post" className="mt-8 space-y-6" {...form.props}>
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
          <button
            type="submit"
            disabled={navigation.state === "submitting"}
            className="w-full rounded-md bg-indigo-700 px-5 py-3 text-lg font-semibold text-white hover:bg-indigo-800 disabled:opacity-60 sm:w-auto"
          >
            {navigation.state === "submitting" ? t.sending : t.send}
          </button>
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
