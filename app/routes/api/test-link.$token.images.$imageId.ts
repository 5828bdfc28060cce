import type { Route } from "./+types/test-link.$token.images.$imageId";
import { imageResponse, readLinkImage } from "~/features/forms/form-images.server.ts";
import { guardedByMisses } from "~/features/submissions/test-link-limits.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";

/** Public: the token is the credential; an unknown one counts as a miss, as on the link itself. */
const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => {
      const image = await guardedByMisses(clientAddressOf(context), () => readLinkImage(params.token, params.imageId));
      const response = imageResponse(image);
      response.headers.set("Referrer-Policy", "no-referrer");
      return response;
    },
  },
  {
    GET: {
      operationId: "getTestLinkImage",
      tag: "Public test links",
      auth: "public",
      summary:
        "An image of the link's form, as the test names it (`image.url`); never one of another form. " +
        "`Cache-Control: private, max-age=31536000, immutable`. 429 after 100 unknown tokens from one client address in 10 minutes.",
      success: { status: 200, description: "The image.", contentType: ["image/png", "image/jpeg"] },
      errors: [404, 429],
    },
  },
);

export const loader = handle;
export const action = handle;
