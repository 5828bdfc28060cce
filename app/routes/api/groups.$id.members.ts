import { browserBody } from "~/lib/api-operation.ts";
import type { Route } from "./+types/groups.$id.members";
import { groupDetail, groupMembersBody } from "~/features/groups/group-schemas.ts";
import { addGroupMembers, removeGroupMembers } from "~/features/groups/groups.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const CHANGERS = "the group's owners and editors, ADMIN, SUPER_ADMIN";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await addGroupMembers(actor, params.id, await readJsonOrFormBody(request, groupMembersBody)));
    },
    DELETE: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await removeGroupMembers(actor, params.id, await readJsonOrFormBody(request, groupMembersBody)));
    },
  },
  {
    POST: {
      operationId: "addGroupMembers",
      tag: "Groups",
      auth: "session",
      roles: CHANGERS,
      summary: "Add students and candidates to a group; those already in it stay. All or nothing: an unknown id is 404.",
      body: { schema: groupMembersBody, types: browserBody },
      success: { status: 200, description: "The group with its members.", schema: groupDetail },
      errors: [400, 401, 403, 404, 413, 415],
    },
    DELETE: {
      operationId: "removeGroupMembers",
      tag: "Groups",
      auth: "session",
      roles: CHANGERS,
      summary: "Remove students and candidates from a group; ids not in it are ignored. An unknown id is 404.",
      body: { schema: groupMembersBody, types: browserBody },
      success: { status: 200, description: "The group with its members.", schema: groupDetail },
      errors: [400, 401, 403, 404, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
