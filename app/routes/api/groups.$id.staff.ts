import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/groups.$id.staff";
import { groupStaffBody, groupStaffResponse } from "~/features/groups/group-schemas.ts";
import { getGroupStaff, replaceGroupStaff } from "~/features/groups/group-staff.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await getGroupStaff(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await replaceGroupStaff(actor, params.id, await readJsonBody(request, groupStaffBody)));
    },
  },
  {
    GET: {
      operationId: "getGroupStaff",
      tag: "Groups",
      auth: "session",
      roles: STAFF,
      summary: "The teachers and administrators who share the group, owners first (docs/api-contract.md §19).",
      success: { status: 200, description: "The group's staff.", schema: groupStaffResponse },
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "replaceGroupStaff",
      tag: "Groups",
      auth: "session",
      roles: "the group's owners, ADMIN, SUPER_ADMIN",
      summary: "Replace the group's staff. Each must be a TEACHER or ADMIN of the organization (400 naming the entry); at least one OWNER (409 LAST_OWNER).",
      body: { schema: groupStaffBody, types: ["json"] },
      success: { status: 200, description: "The group's staff.", schema: groupStaffResponse },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["LAST_OWNER"] },
    },
  },
);

export const loader = handle;
export const action = handle;
