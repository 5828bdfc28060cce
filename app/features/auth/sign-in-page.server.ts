import { pageResult } from "~/lib/client-validation.server.ts";
import { data, redirect } from "react-router";
import { DEFAULT_ORGANIZATION_KIND } from "~/features/organization/organization-kinds.ts";
import { translations } from "~/i18n/dictionaries.ts";
import type { Locale } from "~/lib/i18n.ts";
import { parsePageForm } from "~/lib/page.server.ts";
import { ApiError, problemTextOf } from "~/lib/problem.server.ts";
import type { VerifiedUser } from "./credentials.server.ts";
import { clearPendingSignInCookie, pendingSignInCookie, readPendingSignIn } from "./pending-sign-in.server.ts";
import { signInWithPendingSecondFactor } from "./sign-in.server.ts";
import { signInCodeForm } from "./two-factor-schemas.ts";
import { resendSignInCode, startSecondFactor, type TwoFactorMethod } from "./two-factor.server.ts";

/**
 * The sign-in page's second step (every message in the page's language) (docs/decisions/0007-second-factor.md). A plain form works
 * without JavaScript: after a right password the action answers the code step and sets the
 * pending cookie (pending-sign-in.server.ts), so the password never goes back into the HTML; the
 * code step posts `intent=code` (or `intent=resend` for a new e-mailed code) with the CSRF token,
 * which the page has checked (`pagePost`, app/lib/page.server.ts) before either step.
 */
export type LoginActionResult = {
  step: "credentials" | "code";
  formError: string | null;
  notice: string | null;
  email: string;
  method: TwoFactorMethod | null;
  /** The answer for Conform (useForm with pageFormOptions) when a step refused its form. */
  result?: ReturnType<typeof pageResult>;
};

type Meta = { ipAddress: string; userAgent: string | null };

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
const retryAfterOf = (error: ApiError) => Number(error.headers?.["Retry-After"] ?? 60);

function codeStepResult(user: Pick<VerifiedUser, "email">, method: TwoFactorMethod, extra: Partial<LoginActionResult> = {}): LoginActionResult {
  return { step: "code", formError: null, notice: null, email: user.email, method, ...extra };
}

async function backToCredentials(formError: string, status: number) {
  return data<LoginActionResult>(
    { step: "credentials", formError, notice: null, email: "", method: null },
    { status, headers: { "Set-Cookie": await clearPendingSignInCookie() } },
  );
}

/**
 * The password was right and `user` has a second factor: start it (an e-mailed code for EMAIL)
 * and answer the code step with the pending cookie. While the second step is locked the page
 * stays on the first step with the lock's message.
 */
export async function beginCodeStep(user: VerifiedUser & { twoFactorMethod: TwoFactorMethod }, locale: Locale) {
  const t = translations(locale, DEFAULT_ORGANIZATION_KIND);
  let notice: string | null = user.twoFactorMethod === "EMAIL" ? t.signIn.codeSent(user.email) : null;
  try {
    await startSecondFactor(user);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    if (error.code === "TWO_FACTOR_LOCKED") {
      return data<LoginActionResult>(
        { step: "credentials", formError: problemTextOf(t, error), notice: null, email: user.email, method: null },
        { status: 429, headers: { "Retry-After": String(retryAfterOf(error)) } },
      );
    }
    // Too many codes sent lately: the latest one is still valid, so the code step still makes sense.
    notice = t.signIn.codeSentRecently(String(minutes(retryAfterOf(error))));
  }
  return data<LoginActionResult>(codeStepResult(user, user.twoFactorMethod, { notice }), {
    headers: { "Set-Cookie": await pendingSignInCookie(user) },
  });
}

/** The code step's post: `intent=code` signs in, `intent=resend` e-mails a new code. */
export async function codeStepAction(
  request: Request,
  post: { formData: FormData; tokenValid: boolean },
  intent: "code" | "resend",
  meta: Meta,
  locale: Locale,
) {
  const t = translations(locale, DEFAULT_ORGANIZATION_KIND);
  const form = parsePageForm(post.formData, signInCodeForm, t, { skip: ["intent"] });
  /** The code step again, with `message` next to the code field. */
  const refused = (user: Pick<VerifiedUser, "email">, method: TwoFactorMethod, message: string) =>
    codeStepResult(user, method, { result: pageResult(form.submission, { fieldErrors: { code: message }, formError: null }) });
  if (!post.tokenValid) return backToCredentials(t.signIn.sessionExpired, 403);
  const user = await readPendingSignIn(request);
  if (!user?.twoFactorMethod) return backToCredentials(t.problems.SIGN_IN_EXPIRED, 401);
  const method = user.twoFactorMethod;

  if (intent === "resend") {
    if (method !== "EMAIL") return data<LoginActionResult>(codeStepResult(user, method));
    try {
      await resendSignInCode(user.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const message = error.code === "RATE_LIMITED" ? t.signIn.tooManyCodes(String(minutes(retryAfterOf(error)))) : problemTextOf(t, error);
      return data<LoginActionResult>(refused(user, method, message), {
        status: error.status,
        headers: error.headers ?? {},
      });
    }
    return data<LoginActionResult>(codeStepResult(user, method, { notice: t.signIn.newCodeSent(user.email) }));
  }

  if (!form.ok) return data<LoginActionResult>({ ...codeStepResult(user, method), ...form.reply.data }, { status: 400 });
  try {
    const { setCookie } = await signInWithPendingSecondFactor(request, form.value.code, meta);
    const headers = new Headers();
    headers.append("Set-Cookie", setCookie);
    headers.append("Set-Cookie", await clearPendingSignInCookie());
    return redirect(`/${locale}/home`, { headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "SIGN_IN_EXPIRED") return backToCredentials(problemTextOf(t, error), 401);
    return data<LoginActionResult>(refused(user, method, problemTextOf(t, error)), {
      status: error.status,
      headers: error.headers ?? {},
    });
  }
}
