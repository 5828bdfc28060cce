import { ADMINS } from "~/lib/api-operation.ts";
import { auditEventList, listAuditQuery } from "~/features/audit/audit-schemas.ts";
import { listAuditEvents } from "~/features/audit/audit-log.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => json(await listAuditEvents(requireActor(actorOf(context)), readQuery(request, listAuditQuery))),
  },
  {
    GET: {
      operationId: "listAuditEvents",
      tag: "Audit",
      auth: "session",
      roles: ADMINS,
      summary:
        "The organization's audit log, newest first: who signed in or failed to, changed, read, exported, erased or anonymised what (SUPER_ADMIN: every organization, or one with organizationId). Nothing changes or removes an event.",
      query: listAuditQuery,
      success: { status: 200, description: "A page of events.", schema: auditEventList },
      errors: [400, 401, 403],
    },
  },
);

export const loader = handle;
export const action = handle;
