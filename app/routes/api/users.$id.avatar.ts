import type { Route } from "./+types/users.$id.avatar";
import { getAvatar } from "~/features/users/users.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => {
      const actor = requireActor(actorOf(context));
      const avatar = await getAvatar(actor, params.id);
      return new Response(avatar.data, {
        headers: {
          "Content-Type": avatar.contentType,
          // One's own picture may stay in one's own browser (the URL carries its version, ?v=);
          // another person's is personal data and is not kept after signing out.
          "Cache-Control": params.id === actor.userId ? "private, max-age=31536000, immutable" : "no-store",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'; sandbox",
        },
      });
    },
  },
  {
    GET: {
      operationId: "getAvatar",
      tag: "Users",
      auth: "session",
      summary: "A user's avatar image (same organization).",
      success: { status: 200, description: "The image.", contentType: "image/*" },
      errors: [401, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
