import { ADMINS, browserBody } from "~/lib/api-operation.ts";
import type { Route } from "./+types/organization";
import { organizationResponse, updateOrganizationBody } from "~/features/organization/organization-schemas.ts";
import { getOrganization, updateOrganization } from "~/features/organization/organization.server.ts";
import { requireActor, requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ context }) => json(await getOrganization(requireActor(actorOf(context)))),
    PUT: async ({ request, context }) => {
      const actor = requireAdmin(actorOf(context));
      return json(await updateOrganization(actor, await readJsonOrFormBody(request, updateOrganizationBody)));
    },
  },
  {
    GET: {
      operationId: "getOrganization",
      tag: "Organization",
      auth: "session",
      summary:
        "The caller's organization: its name, the time zone its dates are read in, whether it is a school or a clinic, its retention policy and its privacy notice.",
      success: { status: 200, description: "The organization.", schema: organizationResponse },
      errors: [401],
    },
    PUT: {
      operationId: "updateOrganization",
      tag: "Organization",
      auth: "session",
      roles: ADMINS,
      summary:
        "Rename the organization, change its time zone (an IANA name such as Europe/Madrid), make it a school or a clinic (only the words its pages, e-mails and PDFs say change), " +
        "set or remove its retention policy (a daily run anonymises or deletes old results and inactive people: docs/api-contract.md §21), or its privacy notice for the public test pages.",
      body: { schema: updateOrganizationBody, types: browserBody },
      success: { status: 200, description: "The updated organization.", schema: organizationResponse },
      errors: [400, 401, 403, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
