import { data, Link, redirect, type ShouldRevalidateFunction } from "react-router";
import { Outcome, TestForm } from "~/components/test-form.tsx";
import { TestReview } from "~/components/test-review.tsx";
import type { Route } from "./+types/test";
import { closedLinkNotices, openTestLinkPage, saveTestDraft, submitTestLink } from "~/features/submissions/test-link.server.ts";
import { completedLinkReview } from "~/features/submissions/review.server.ts";
import type { TestLinkReview } from "~/features/submissions/review-schemas.ts";
import { privacyNoticeIn } from "~/features/organization/privacy-notice.ts";
import { countTestLinkWrite, guardedByMisses, readingTestLink } from "~/features/submissions/test-link-limits.server.ts";
import { translations } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { OrganizationKindContext, useLocale, useT } from "~/i18n/hooks.ts";
import { type Locale, resolveLocale } from "~/lib/i18n.ts";
import { actorOf, clientAddressOf } from "~/lib/endpoint.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { answersFrom, answersValidation, errorsByQuestion } from "~/features/submissions/test-link-page.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import { formSubmission } from "~/lib/http.server.ts";

/**
 * The respondent's page: a plain HTML form that works without JavaScript, posting to this route's
 * action, which submits through the same service as POST /api/test-link/:token/submit, or saves
 * the answers so far ("Save and finish later", and with JavaScript as the respondent goes) through
 * the same service as PUT /api/test-link/:token/draft.
 */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** A refused request (ADR 47) says when to try again. */
export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { ...PRIVATE_HEADERS, "Retry-After": retryAfter } : PRIVATE_HEADERS;
};

export const meta: Route.MetaFunction = ({ loaderData, params, matches }) => [
  { title: loaderData && "test" in loaderData ? loaderData.test.form.title : metaTranslations({ params, matches }).testLink.title },
  { name: "robots", content: "noindex" },
];

/**
 * `notice`: what a completed link's respondent must read (its captured critical message), or null;
 * `privacyNotice`: the organization's, in the page's language, for a link that exists. A completed
 * link's `review` when its form allows it (docs/api-contract.md §22), else whether it opens once the
 * test closes; `home`: the viewer is its student, signed in.
 */
type Unavailable = {
  state: "completed" | "expired" | "revoked" | "closed" | "not-found" | "too-many";
  notice?: string | null;
  privacyNotice?: string | null;
  review?: TestLinkReview | null;
  opensWhenClosed?: boolean;
  home?: boolean;
};

/** Saving a draft changes nothing the page shows: no need to load the test again after each save. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "save" ? false : defaultShouldRevalidate;

/** Why a link takes no answers, by the service's error code. */
const UNAVAILABLE: Record<string, Unavailable["state"]> = {
  ALREADY_COMPLETED: "completed",
  LINK_EXPIRED: "expired",
  LINK_REVOKED: "revoked",
  FORM_CLOSED: "closed",
  RATE_LIMITED: "too-many",
};

/** The answer of a refused request: 429 with the refusal's Retry-After. */
const refusedHeaders = (error: ApiError) => ({ ...PRIVATE_HEADERS, ...error.headers });

/** What a link that takes no answers still shows: its critical message when completed, and the organization's privacy notice. */
async function closedLinkPage(token: string, locale: Locale) {
  const notices = await closedLinkNotices(token);
  return { notice: notices.criticalMessage, privacyNotice: privacyNoticeIn(notices.privacyNotice, locale) };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  try {
    const opened = await readingTestLink(clientAddressOf(context), params.token, () => openTestLinkPage(params.token));
    const { privacyNotice, ...test } = opened.test;
    return {
      test,
      organizationKind: opened.organizationKind,
      validation: answersValidation(test, translations(locale, opened.organizationKind)),
      // In the respondent's language (docs/api-contract.md §21): the page sends that text alone.
      privacyNotice: privacyNoticeIn(privacyNotice, locale),
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const state = UNAVAILABLE[error.code] ?? "not-found";
    // An unknown link names no organization, and a refused request reads nothing more.
    const notices = state === "not-found" || state === "too-many" ? {} : await closedLinkPage(params.token, locale);
    // The confirmation page, after the post/redirect/get of a submit or opened again later: with the
    // form's critical message when these answers were flagged (docs/api-contract.md §16).
    if (state === "completed") {
      const review = await completedLinkReview(params.token, actorOf(context));
      return data<Unavailable>({ state, ...notices, ...review }, { headers: PRIVATE_HEADERS });
    }
    return data<Unavailable>({ state, ...notices }, { status: error.status, headers: refusedHeaders(error) });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // Built from the params: with JavaScript the request URL is the `.data` endpoint, not the page.
  const locale = resolveLocale(params.locale);
  const page = `/${locale}/test/${params.token}`;
  const formData = await request.formData();
  const address = clientAddressOf(context);
  const intent = formData.get("intent") === "save" ? "draft" : "submit";
  let opened: Awaited<ReturnType<typeof openTestLinkPage>>;
  try {
    opened = await guardedByMisses(address, async () => {
      await countTestLinkWrite(params.token, address, intent);
      return openTestLinkPage(params.token);
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 429) return data({ tooMany: true as const }, { status: 429, headers: refusedHeaders(error) });
    // A second submit (another tab, the back button): say that these answers were not recorded.
    if (error.code === "ALREADY_COMPLETED" && formData.get("intent") !== "save") return alreadyAnswered(params.token, locale);
    // Expired, withdrawn, closed or gone meanwhile: the page itself explains it.
    throw redirect(page);
  }
  const answers = answersFrom(opened.test.form.questions, formData);
  // The respondent has no session: the link's organization says which words its messages use.
  const t = translations(locale, opened.organizationKind);
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
    if (error.code === "ALREADY_COMPLETED") return alreadyAnswered(params.token, locale);
    if (error.status !== 400) throw redirect(page);
    const fieldErrors = errorsByQuestion(t, error.errors ?? [], answers);
    return data({ result: pageResult(formSubmission(formData), { fieldErrors, formError: null }) }, { status: 400, headers: PRIVATE_HEADERS });
  }
  // Post/redirect/get: reloading the end page never submits again.
  throw redirect(page, { headers: PRIVATE_HEADERS });
}

const alreadyAnswered = async (token: string, locale: Locale) =>
  data({ already: true as const, privacyNotice: (await closedLinkPage(token, locale)).privacyNotice }, { status: 409, headers: PRIVATE_HEADERS });

export default function TestPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT().testLink;
  if (actionData && "already" in actionData) return <Outcome title={t.alreadyTitle} text={t.alreadyText} privacyNotice={actionData.privacyNotice} />;
  if (actionData && "tooMany" in actionData) return <Outcome title={t.tooManyTitle} text={t.tooManyText} />;
  if (!("test" in loaderData)) {
    const [title, text] = (
      {
        completed: [t.doneTitle, t.doneText],
        expired: [t.expiredTitle, t.expiredText],
        revoked: [t.revokedTitle, t.revokedText],
        closed: [t.closedTitle, t.closedText],
        "not-found": [t.notFoundTitle, t.notFoundText],
        "too-many": [t.tooManyTitle, t.tooManyText],
      } satisfies Record<Unavailable["state"], [string, string]>
    )[loaderData.state];
    return (
      <Outcome title={title} text={text} notice={loaderData.notice} privacyNotice={loaderData.privacyNotice}>
        {loaderData.opensWhenClosed ? <p className="mt-6 text-slate-700">{t.review.opensWhenClosed}</p> : null}
        {loaderData.review ? <TestReview review={loaderData.review} /> : null}
        {loaderData.home ? <HomeLink /> : null}
      </Outcome>
    );
  }
  // The respondent has no session: the page speaks with the link's organization's words (ADR 81).
  return (
    <OrganizationKindContext value={loaderData.organizationKind}>
      <TestForm
        test={loaderData.test}
        validation={loaderData.validation}
        result={actionData && "result" in actionData ? actionData.result : undefined}
        saved={Boolean(actionData && "saved" in actionData)}
        privacyNotice={loaderData.privacyNotice}
      />
    </OrganizationKindContext>
  );
}

/** A signed-in student's way back to their own page, where their other tests are. */
function HomeLink() {
  const t = useT().testLink.review;
  return (
    <p className="mt-8">
      <Link to={paths.home(useLocale())} className="font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950">
        {t.home}
      </Link>
    </p>
  );
}
