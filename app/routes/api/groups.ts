import { browserBody, STAFF } from "~/lib/api-operation.ts";
import { createGroupBody, groupDetail, groupListResponse, listGroupsQuery } from "~/features/groups/group-schemas.ts";
import { createGroup, listGroupChanges, listGroups } from "~/features/groups/groups.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const query = readQuery(request, listGroupsQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listGroupChanges(actor, { ...query, updatedSince }) : await listGroups(actor, query));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await createGroup(actor, await readJsonOrFormBody(request, createGroupBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listGroups",
      tag: "Groups",
      auth: "session",
      roles: STAFF,
      summary: "List the organization's groups (classes, caseloads), by name.",
      query: listGroupsQuery,
      success: {
        status: 200,
        description: "A page of groups, in name order; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: groupListResponse,
      },
      errors: [400, 401, 403],
    },
    POST: {
      operationId: "createGroup",
      idempotencyKey: true,
      tag: "Groups",
      auth: "session",
      roles: STAFF,
      summary: "Create a group.",
      body: { schema: createGroupBody, types: browserBody },
      success: { status: 201, description: "The created group, without members.", schema: groupDetail, location: "/api/groups/{id}" },
      versioned: true,
      errors: [400, 401, 403, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
