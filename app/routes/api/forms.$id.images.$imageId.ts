import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.images.$imageId";
import { imageResponse, readFormImage } from "~/features/forms/form-images.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => imageResponse(await readFormImage(requireStaff(actorOf(context)), params.id, params.imageId)),
  },
  {
    GET: {
      operationId: "getFormImage",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary:
        "An image of a form the caller reads (or of whose results they see). Its content never changes: " +
        "`Cache-Control: private, max-age=31536000, immutable`.",
      success: { status: 200, description: "The image.", contentType: ["image/png", "image/jpeg"] },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
