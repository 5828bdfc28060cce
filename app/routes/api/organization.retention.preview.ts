import { ADMINS } from "~/lib/api-operation.ts";
import type { Route } from "./+types/organization.retention.preview";
import { retentionPreviewResponse } from "~/features/retention/retention-schemas.ts";
import { previewRetention } from "~/features/retention/retention.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ context }) => json(await previewRetention(requireAdmin(actorOf(context)))),
  },
  {
    GET: {
      operationId: "previewRetention",
      tag: "Organization",
      auth: "session",
      roles: ADMINS,
      summary:
        "What the retention policy's next run would touch if it ran now (docs/api-contract.md §21): for each rule its cut-off, how many results or people, and the first 100 of them; nothing is changed.",
      success: { status: 200, description: "The preview.", schema: retentionPreviewResponse },
      errors: [401, 403],
    },
  },
);

export const loader = handle;
export const action = handle;
