import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.images";
import { formImageResponse, uploadFormImageBody } from "~/features/forms/form-image-schemas.ts";
import { addFormImage } from "~/features/forms/form-images.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readFileUpload } from "~/lib/http.server.ts";

const handle = endpoint<Route.ActionArgs>(
  {
    POST: async ({ request, context, params }) => {
      const actor = requireStaff(actorOf(context));
      const { file } = await readFileUpload(request, "chooseImage");
      const image = await addFormImage(actor, params.id, file);
      return json(image, { status: 201, headers: { Location: image.url } });
    },
  },
  {
    POST: {
      operationId: "uploadFormImage",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary:
        "Add an image to a form the caller may change, for its questions and options to name by `imageId` (with `imageAlt`). " +
        "The file is decoded whatever its name says (400 when it is not a PNG, JPEG or WebP image), turned upright, " +
        "scaled down to at most 2,000 px, stripped of its metadata and stored as PNG (with transparency) or JPEG. " +
        "413 above 2 MiB; 409 INSTRUMENT_LOCKED for an installed instrument.",
      body: { schema: uploadFormImageBody, types: ["multipart"] },
      success: { status: 201, description: "The stored image.", schema: formImageResponse, location: "/api/forms/{id}/images/{imageId}" },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["INSTRUMENT_LOCKED"] },
    },
  },
);

export const action = handle;
export const loader = handle;
