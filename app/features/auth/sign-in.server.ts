import { z } from "zod";
import { ApiError } from "~/lib/problem.server.ts";
import { missingAs } from "~/lib/schemas.ts";
import type { RequestOrigin } from "~/lib/auth/actor.server.ts";
import { requestOrigin } from "~/lib/request-origin.server.ts";
import { recordFailedSignIn, verifyEmailAndPassword, type VerifiedUser } from "./credentials.server.ts";
import { unlockedUserOf } from "./sign-in-unlock.server.ts";
import { readPendingSignIn } from "./pending-sign-in.server.ts";
import { createSession } from "~/lib/auth/session.server.ts";
import { nextAuthFields } from "./nextauth.server.ts";
import { verifySecondFactorCode, type TwoFactorMethod } from "./two-factor.server.ts";

export const credentialsBody = z
  .strictObject({
    email: z.string(missingAs("emailRequired")).trim().min(1, "emailRequired").max(254),
    password: z.string(missingAs("passwordRequired")).min(1, "passwordRequired").max(1024),
    csrfToken: z.string().min(1, "required").max(200),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "code")
      .optional()
      .meta({ description: "Second-factor code, when check-credentials said one is required.", examples: ["123456"] }),
    locale: z.string().optional().meta({ description: "Locale of the page to land on (browser forms)." }),
    ...nextAuthFields,
  })
  .meta({ id: "CredentialsSignIn" });

export type CredentialsInput = z.output<typeof credentialsBody>;

export const checkCredentialsBody = z
  .strictObject({
    email: z.string(missingAs("emailRequired")).trim().min(1, "emailRequired").max(254),
    password: z.string(missingAs("passwordRequired")).min(1, "passwordRequired").max(1024),
  })
  .meta({ id: "CheckCredentials" });

export const signOutBody = z
  .strictObject({
    csrfToken: z.string().min(1).max(200),
    locale: z.string().optional().meta({ description: "Locale of the sign-in page to land on (browser forms)." }),
    ...nextAuthFields,
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
 * two-factor.server.ts): 401 without a code or with a wrong one, 429 while locked. A wrong or spent
 * code is a failed sign-in of the account in the audit log.
 */
async function verifySecondFactor(user: VerifiedUser, code: string | undefined, origin: RequestOrigin): Promise<void> {
  if (!user.twoFactorMethod) return;
  if (!code) throw new SecondFactorRequiredError({ ...user, twoFactorMethod: user.twoFactorMethod });
  try {
    await verifySecondFactorCode(user.id, user.twoFactorMethod, code);
  } catch (error) {
    if (error instanceof ApiError && (error.code === "TWO_FACTOR_INVALID" || error.code === "TWO_FACTOR_EXPIRED")) {
      await recordFailedSignIn(user, origin, "second_factor");
    }
    throw error;
  }
}

const pendingExpired = () => new ApiError(401, "SIGN_IN_EXPIRED", "Your sign-in took too long. Enter your e-mail and password again.");

/**
 * Verifies the credentials and opens a new session; answers the Set-Cookie header. The session and
 * its `auth.signed_in` event are written together, after the second factor when there is one.
 */
export async function signInWithCredentials(
  input: Pick<CredentialsInput, "email" | "password" | "code">,
  meta: { ipAddress: string; userAgent: string | null; request: Request },
): Promise<{ userId: string; setCookie: string }> {
  const origin = requestOrigin(meta.request, meta.ipAddress);
  // The verifiers are called directly (ADR 3): the route has already read and validated the body,
  // so a remix-auth strategy would only be handed the same values back.
  const user = await verifyEmailAndPassword(input.email, input.password, {
    clientAddress: meta.ipAddress,
    origin,
    unlockedUserId: await unlockedUserOf(meta.request),
  });
  await verifySecondFactor(user, input.code || undefined, origin);
  const session = await createSession(user.id, { ...meta, signedIn: { origin, method: "password" } });
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
  // The pending cookie stands for the password checked moments ago.
  const user = await readPendingSignIn(request);
  if (!user) throw pendingExpired();
  const origin = requestOrigin(request, meta.ipAddress);
  await verifySecondFactor(user, code || undefined, origin);
  const session = await createSession(user.id, { ...meta, signedIn: { origin, method: "password" } });
  return { userId: user.id, setCookie: session.setCookie };
}
