import { z } from "zod";
import { idSchema, timestamp } from "~/lib/schemas.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const sessionResponse = z
  .union([
    z.object({
      user: z.object({
        id: idSchema,
        name: z.string(),
        email: z.string(),
        role: z.string(),
        image: z.string().nullable(),
      }),
      expires: timestamp,
    }),
    z.object({}).meta({ description: "No session." }),
  ])
  .meta({ id: "Session" });

const handle = endpoint(
  {
    GET: async ({ context }) => {
      const actor = actorOf(context);
      if (!actor) return json({});
      const { userId: id, name, email, role, image, sessionExpiresAt } = actor;
      return json({ user: { id, name, email, role, image }, expires: sessionExpiresAt.toISOString() });
    },
  },
  {
    GET: {
      operationId: "getSession",
      tag: "Authentication",
      auth: "public",
      summary: "The current session's user and expiry, or {} without a session.",
      success: { status: 200, description: "The session.", schema: sessionResponse },
      errors: [],
    },
  },
);

export const loader = handle;
export const action = handle;
