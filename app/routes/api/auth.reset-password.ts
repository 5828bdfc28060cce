import { resetPasswordBody } from "~/features/passwords/password-schemas.ts";
import { resetPassword } from "~/features/passwords/passwords.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/reset-password {token, password}: sets the password and ends every session. */
const handle = endpoint({
  POST: async ({ request }) => {
    await resetPassword(await readJsonBody(request, resetPasswordBody));
    return json({ ok: true });
  },
});

export const loader = handle;
export const action = handle;
