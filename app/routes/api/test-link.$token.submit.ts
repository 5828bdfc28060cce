import { browserBody } from "~/lib/api-operation.ts";
import type { Route } from "./+types/test-link.$token.submit";
import { submitAnswersBody, submitResponse } from "~/features/submissions/submission-schemas.ts";
import { submitTestLink } from "~/features/submissions/test-link.server.ts";
import { TEST_LINK_SUBMIT_LIMIT, consumeRateLimit } from "~/lib/auth/rate-limit.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      await consumeRateLimit(TEST_LINK_SUBMIT_LIMIT, clientAddressOf(context));
      const answers = await readJsonOrFormBody(request, submitAnswersBody);
      return json(await submitTestLink(params.token, answers), { headers: { "Referrer-Policy": "no-referrer" } });
    },
  },
  {
    POST: {
      operationId: "submitTestLink",
      tag: "Public test links",
      auth: "public",
      summary: "Submit the answers, once. Scores are computed on the server; a second submit is 409.",
      body: { schema: submitAnswersBody, types: browserBody },
      success: { status: 200, description: "Completed.", schema: submitResponse },
      errors: [400, 404, 409, 410, 413, 415, 429],
      codes: { 409: ["ALREADY_COMPLETED"], 410: ["LINK_EXPIRED", "LINK_REVOKED", "FORM_CLOSED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
