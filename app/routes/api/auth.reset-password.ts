import { passwordSetResponse, resetPasswordBody } from "~/features/passwords/password-schemas.ts";
import { resetPassword } from "~/features/passwords/passwords.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";
import { requestOrigin } from "~/lib/request-origin.server.ts";

/** POST /api/auth/reset-password {token, password}: sets the password and ends every session. */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      await resetPassword(await readJsonBody(request, resetPasswordBody), requestOrigin(request, clientAddressOf(context)));
      return json({ ok: true });
    },
  },
  {
    POST: {
      operationId: "resetPassword",
      tag: "Authentication",
      auth: "public",
      summary:
        "Set a new password with the token of a reset or invitation link, once. Ends every session of the user. " +
        "An unknown, used or expired token is 400 INVALID_TOKEN; a refused password is 400 naming `password`.",
      body: { schema: resetPasswordBody, types: ["json"] },
      success: { status: 200, description: "The password is set; sign in with it.", schema: passwordSetResponse },
      errors: [400, 413, 415],
      codes: { 400: ["INVALID_TOKEN"] },
    },
  },
);

export const loader = handle;
export const action = handle;
