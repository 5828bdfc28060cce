import { roleResponse } from "~/features/users/user-schemas.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ context }) => json({ role: requireActor(actorOf(context)).role }),
  },
  {
    GET: {
      operationId: "getRole",
      tag: "Users",
      auth: "session",
      summary: "The caller's role.",
      success: { status: 200, description: "The role.", schema: roleResponse },
      errors: [401],
    },
  },
);

export const loader = handle;
export const action = handle;
