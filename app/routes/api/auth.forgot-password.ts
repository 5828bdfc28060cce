import { forgotPasswordBody, forgotPasswordResponse } from "~/features/passwords/password-schemas.ts";
import { FORGOT_PASSWORD_MESSAGE, requestPasswordReset } from "~/features/passwords/passwords.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/forgot-password {email}: the same 200 for every address (no account enumeration). */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const { email } = await readJsonBody(request, forgotPasswordBody);
      await requestPasswordReset(email, clientAddressOf(context));
      return json({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
    },
  },
  {
    POST: {
      operationId: "forgotPassword",
      tag: "Authentication",
      auth: "public",
      summary:
        "Ask for a password reset link. Always the same 200 whether or not the address is known; an active account is e-mailed " +
        "a single-use link to /{locale}/reset-password valid 1 hour (a newer link cancels older ones). " +
        "Limits: 20 requests per hour per client address, 5 per hour per e-mail address.",
      body: { schema: forgotPasswordBody, types: ["json"] },
      success: { status: 200, description: "Accepted (nothing says whether the address is known).", schema: forgotPasswordResponse },
      errors: [400, 413, 415, 429],
    },
  },
);

export const loader = handle;
export const action = handle;
