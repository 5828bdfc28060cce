import type { Route } from "./+types/test-link.$token.submit";
import { submitAnswersBody } from "~/features/submissions/submission-schemas.ts";
import { submitTestLink } from "~/features/submissions/test-link.server.ts";
import { TEST_LINK_SUBMIT_LIMIT, consumeRateLimit } from "~/lib/auth/rate-limit.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  POST: async ({ request, params, context }) => {
    await consumeRateLimit(TEST_LINK_SUBMIT_LIMIT, clientAddressOf(context));
    const answers = await readJsonOrFormBody(request, submitAnswersBody);
    return json(await submitTestLink(params.token, answers), { headers: { "Referrer-Policy": "no-referrer" } });
  },
});

export const loader = handle;
export const action = handle;
