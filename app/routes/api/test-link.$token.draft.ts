import { browserBody } from "~/lib/api-operation.ts";
import type { Route } from "./+types/test-link.$token.draft";
import { draftSavedResponse, saveDraftBody } from "~/features/submissions/submission-schemas.ts";
import { saveTestDraft } from "~/features/submissions/test-link.server.ts";
import { countTestLinkWrite, guardedByMisses } from "~/features/submissions/test-link-limits.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    PUT: async ({ request, params, context }) => {
      const address = clientAddressOf(context);
      const saved = await guardedByMisses(address, async () => {
        await countTestLinkWrite(params.token, address, "draft");
        return saveTestDraft(params.token, await readJsonOrFormBody(request, saveDraftBody));
      });
      return json(saved, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
    },
  },
  {
    PUT: {
      operationId: "saveTestDraft",
      tag: "Public test links",
      auth: "public",
      summary:
        "Save the answers so far without sending them (no scoring, no completion; the same checks of question and option ids, none required). " +
        "They come back with GET /api/test-link/{token} on any device; the link's status becomes IN_PROGRESS; submitting discards them. " +
        "429 after 120 saves and submits of one link in 10 minutes.",
      body: { schema: saveDraftBody, types: browserBody },
      success: { status: 200, description: "Saved.", schema: draftSavedResponse },
      errors: [400, 404, 409, 410, 413, 415, 429],
      codes: { 409: ["ALREADY_COMPLETED"], 410: ["LINK_EXPIRED", "LINK_REVOKED", "FORM_CLOSED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
