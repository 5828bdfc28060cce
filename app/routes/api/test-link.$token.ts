import { testLinkResponse } from "~/features/submissions/submission-schemas.ts";
import type { Route } from "./+types/test-link.$token";
import { openTestLink } from "~/features/submissions/test-link.server.ts";
import { readingTestLink } from "~/features/submissions/test-link-limits.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

/** Public: the token is the credential. Never cached, never leaked through Referer. */
const privateHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => {
      const test = await readingTestLink(clientAddressOf(context), params.token, () => openTestLink(params.token));
      return json(test, { headers: privateHeaders });
    },
  },
  {
    GET: {
      operationId: "openTestLink",
      tag: "Public test links",
      auth: "public",
      summary:
        "The test behind a private link, without scores or score ranges. " +
        "429 after 300 opens of one link in 10 minutes, or after 100 unknown tokens from one client address in 10 minutes.",
      success: { status: 200, description: "The test.", schema: testLinkResponse },
      errors: [404, 409, 410, 429],
      codes: { 409: ["ALREADY_COMPLETED"], 410: ["LINK_EXPIRED", "LINK_REVOKED", "FORM_CLOSED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
