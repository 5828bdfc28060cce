import { browserBody } from "~/lib/api-operation.ts";
import type { Route } from "./+types/test-link.$token.submit";
import { submitAnswersBody, submitResponse } from "~/features/submissions/submission-schemas.ts";
import { submitTestLink } from "~/features/submissions/test-link.server.ts";
import { countTestLinkWrite, guardedByMisses } from "~/features/submissions/test-link-limits.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const address = clientAddressOf(context);
      const submitted = await guardedByMisses(address, async () => {
        await countTestLinkWrite(params.token, address, "submit");
        return submitTestLink(params.token, await readJsonOrFormBody(request, submitAnswersBody));
      });
      return json(submitted, { headers: { "Referrer-Policy": "no-referrer" } });
    },
  },
  {
    POST: {
      operationId: "submitTestLink",
      tag: "Public test links",
      auth: "public",
      summary:
        "Submit the answers, once. Scores are computed on the server; a second submit is 409. " +
        "429 after 120 saves and submits of one link, or TEST_LINK_SUBMITS_PER_ADDRESS submits from one client address, in 10 minutes.",
      body: { schema: submitAnswersBody, types: browserBody },
      success: { status: 200, description: "Completed.", schema: submitResponse },
      errors: [400, 404, 409, 410, 413, 415, 429],
      codes: { 409: ["ALREADY_COMPLETED"], 410: ["LINK_EXPIRED", "LINK_REVOKED", "FORM_CLOSED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
