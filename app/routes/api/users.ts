import { ADMINS } from "~/lib/api-operation.ts";
import { listUsersQuery, userListResponse } from "~/features/users/user-admin-schemas.ts";
import { listUsers } from "~/features/users/user-admin.server.ts";
import { createUserBody, profileResponse } from "~/features/users/user-schemas.ts";
import { createUser } from "~/features/users/users.server.ts";
import { requireActor, requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => json(await listUsers(requireActor(actorOf(context)), readQuery(request, listUsersQuery))),
    POST: async ({ request, context }) => {
      const actor = requireAdmin(actorOf(context));
      return json(await createUser(actor, await readJsonBody(request, createUserBody)), 201);
    },
  },
  {
    POST: {
      operationId: "createUser",
      idempotencyKey: true,
      tag: "Users",
      auth: "session",
      roles: ADMINS,
      summary: "Create a user. Administrators create in their organization and never a SUPER_ADMIN.",
      body: { schema: createUserBody, types: ["json"] },
      success: { status: 201, description: "The user, in the profile format.", schema: profileResponse, location: "/api/users/{id}" },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["EMAIL_TAKEN", "STUDENT_HAS_LOGIN"] },
    },
    GET: {
      operationId: "listUsers",
      tag: "Users",
      auth: "session",
      roles: ADMINS,
      summary: "List the logins of the caller's organization (SUPER_ADMIN: every organization, or one with organizationId).",
      query: listUsersQuery,
      success: { status: 200, description: "A page of users, newest first.", schema: userListResponse },
      errors: [400, 401, 403],
    },
  },
);

export const loader = handle;
export const action = handle;
