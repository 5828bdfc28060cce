import { forgotPasswordBody } from "~/features/passwords/password-schemas.ts";
import { FORGOT_PASSWORD_MESSAGE, requestPasswordReset } from "~/features/passwords/passwords.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/forgot-password {email}: the same 200 for every address (no account enumeration). */
const handle = endpoint({
  POST: async ({ request, context }) => {
    const { email } = await readJsonBody(request, forgotPasswordBody);
    await requestPasswordReset(email, clientAddressOf(context));
    return json({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
  },
});

export const loader = handle;
export const action = handle;
