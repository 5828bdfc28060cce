import { getAvatar } from "~/features/users/users.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";

const handle = endpoint({
  GET: async ({ params, context }) => {
    const avatar = await getAvatar(requireActor(actorOf(context)), params.id!);
    return new Response(avatar.data, {
      headers: {
        "Content-Type": avatar.contentType,
        // The URL carries the version (?v=), so a changed avatar gets a new URL.
        "Cache-Control": "private, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  },
});

export const loader = handle;
export const action = handle;
