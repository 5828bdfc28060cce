import { z } from "zod";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const csrfResponse = z.object({ csrfToken: z.string() }).meta({ id: "CsrfToken" });

const handle = endpoint(
  {
    GET: async ({ request }) => {
      const { token, setCookie } = await issueCsrfToken(request);
      return json({ csrfToken: token }, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
    },
  },
  {
    GET: {
      operationId: "getCsrfToken",
      tag: "Authentication",
      auth: "public",
      summary: "Get a CSRF token (and its cookie) for sign-in and sign-out.",
      success: { status: 200, description: "The token; the cookie remix-auth.csrf-token is set.", schema: csrfResponse, headers: ["Set-Cookie"] },
      errors: [],
    },
  },
);

export const loader = handle;
export const action = handle;
