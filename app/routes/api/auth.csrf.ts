import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request }) => {
    const { token, setCookie } = await issueCsrfToken(request);
    return json({ csrfToken: token }, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
  },
});

export const loader = handle;
export const action = handle;
