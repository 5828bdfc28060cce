import { browserBody, STAFF } from "~/lib/api-operation.ts";
import { deletedResponse } from "~/lib/schemas.ts";
import type { Route } from "./+types/groups.$id";
import { groupDetail, updateGroupBody } from "~/features/groups/group-schemas.ts";
import { deleteGroup, getGroup, updateGroup } from "~/features/groups/groups.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readIfMatch, versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const CHANGERS = "the group's owners and editors, ADMIN, SUPER_ADMIN";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => versionedJson(await getGroup(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await updateGroup(actor, params.id, await readJsonOrFormBody(request, updateGroupBody), readIfMatch(request)));
    },
    DELETE: async ({ params, context }) => json(await deleteGroup(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getGroup",
      tag: "Groups",
      auth: "session",
      roles: STAFF,
      summary: "Read a group with its members, in name order.",
      success: { status: 200, description: "The group.", schema: groupDetail },
      versioned: true,
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateGroup",
      tag: "Groups",
      auth: "session",
      roles: CHANGERS,
      summary: "Rename a group or change its description.",
      body: { schema: updateGroupBody, types: browserBody },
      success: { status: 200, description: "The updated group.", schema: groupDetail },
      versioned: true,
      errors: [400, 401, 403, 404, 413, 415],
    },
    DELETE: {
      operationId: "deleteGroup",
      tag: "Groups",
      auth: "session",
      roles: CHANGERS,
      summary: "Soft-delete a group; its members and their results stay.",
      success: { status: 200, description: "Deleted.", schema: deletedResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
