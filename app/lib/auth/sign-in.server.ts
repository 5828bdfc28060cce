import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import { ApiError } from "../problem.server.ts";
import { verifyEmailAndPassword, type VerifiedUser } from "./credentials.server.ts";
import { readPendingSignIn } from "./pending-sign-in.server.ts";
import { createSession } from "./session.server.ts";
import { verifySecondFactorCode, type TwoFactorMethod } from "./two-factor.server.ts";

export const credentialsBody = z
  .strictObject({
    email: z.string().trim().min(1, "Enter your e-mail address.").max(254),
    password: z.string().min(1, "Enter your password.").max(1024),
    csrfToken: z.string().min(1, "The CSRF token is missing.").max(200),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "Enter the 6-digit code.")
      .optional()
      .meta({ description: "Second-factor code, when check-credentials said one is required." }),
    locale: z.string().optional().meta({ description: "Locale of the page to land on (browser forms)." }),
  })
  .meta({ id: "CredentialsSignIn" });

export type CredentialsInput = z.output<typeof credentialsBody>;

export const checkCredentialsBody = z
  .strictObject({
    email: z.string().trim().min(1, "Enter your e-mail address.").max(254),
    password: z.string().min(1, "Enter your password.").max(1024),
  })
  .meta({ id: "CheckCredentials" });

export const signOutBody = z
  .strictObject({
    csrfToken: z.string().min(1).max(200),
    locale: z.string().optional().meta({ description: "Locale of the sign-in page to land on (browser forms)." }),
  })
  .meta({ id: "SignOut" });

/**
 * Thrown when the password is right but the user has a second factor and sent no code. It carries
 * the verified user so the sign-in page can move on to its code step.
 */
export class SecondFactorRequiredError extends ApiError {
  constructor(readonly user: VerifiedUser & { twoFactorMethod: TwoFactorMethod }) {
    super(401, "TWO_FACTOR_REQUIRED", "Enter the code from your second factor.");
  }
}

/**
 * Checks the second factor of a user who has one (TOTP or an e-mailed code; see
 * two-factor.server.ts): 401 without a code or with a wrong one, 429 while locked.
 */
async function verifySecondFactor(user: VerifiedUser, code: string | undefined): Promise<void> {
  if (!user.twoFactorMethod) return;
  if (!code) throw new SecondFactorRequiredError({ ...user, twoFactorMethod: user.twoFactorMethod });
  await verifySecondFactorCode(user.id, user.twoFactorMethod, code);
}

/**
 * remix-auth drives the credentials sign-in: the FormStrategy receives the validated e-mail,
 * password and code and verifies them again (check-credentials is only a preview; a code alone
 * never signs anyone in).
 */
const authenticator = new Authenticator<VerifiedUser>().use(
  new FormStrategy(async ({ form }) => {
    const user = await verifyEmailAndPassword(String(form.get("email")), String(form.get("password")), String(form.get("clientAddress")));
    const code = form.get("code");
    await verifySecondFactor(user, typeof code === "string" && code !== "" ? code : undefined);
    return user;
  }),
  "credentials",
).use(
  // The sign-in page's code step: the pending cookie stands for the password checked moments ago.
  new FormStrategy(async ({ form, request }) => {
    const user = await readPendingSignIn(request);
    if (!user) throw pendingExpired();
    const code = form.get("code");
    await verifySecondFactor(user, typeof code === "string" && code !== "" ? code : undefined);
    return user;
  }),
  "pending-second-factor",
);

const pendingExpired = () =>
  new ApiError(401, "SIGN_IN_EXPIRED", "Your sign-in took too long. Enter your e-mail and password again.");

/** Verifies the credentials and opens a new session; answers the Set-Cookie header. */
export async function signInWithCredentials(
  input: Pick<CredentialsInput, "email" | "password" | "code">,
  meta: { ipAddress: string; userAgent: string | null },
): Promise<{ userId: string; setCookie: string }> {
  const form = new URLSearchParams({ email: input.email, password: input.password, code: input.code ?? "", clientAddress: meta.ipAddress });
  const request = new Request("http://internal/api/auth/callback/credentials", { method: "POST", body: form });
  const user = await authenticator.authenticate("credentials", request);
  const session = await createSession(user.id, meta);
  return { userId: user.id, setCookie: session.setCookie };
}

/**
 * The sign-in page's second step: the code, checked for the user of the pending cookie (see
 * pending-sign-in.server.ts), then a new session. 401 SIGN_IN_EXPIRED without a valid cookie.
 */
export async function signInWithPendingSecondFactor(
  request: Request,
  code: string,
  meta: { ipAddress: string; userAgent: string | null },
): Promise<{ userId: string; setCookie: string }> {
  const internal = new Request("http://internal/login/second-factor", {
    method: "POST",
    headers: { cookie: request.headers.get("cookie") ?? "" },
    body: new URLSearchParams({ code }),
  });
  const user = await authenticator.authenticate("pending-second-factor", internal);
  const session = await createSession(user.id, meta);
  return { userId: user.id, setCookie: session.setCookie };
}
