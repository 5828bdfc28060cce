import { submitAnswersBody } from "~/features/submissions/submission-schemas.ts";
import { submitTestLink } from "~/features/submissions/test-link.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint({
  POST: async ({ request, params }) => {
    const answers = await readJsonOrFormBody(request, submitAnswersBody);
    return json(await submitTestLink(params.token!, answers), { headers: { "Referrer-Policy": "no-referrer" } });
  },
});

export const loader = handle;
export const action = handle;
