import { profileResponse, updateProfileBody } from "~/features/users/user-schemas.ts";
import { getProfile, updateProfile } from "~/features/users/users.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ context }) => json(await getProfile(requireActor(actorOf(context)).userId)),
    PUT: async ({ request, context }) => {
      const actor = requireActor(actorOf(context));
      return json(await updateProfile(actor, await readJsonOrFormBody(request, updateProfileBody)));
    },
  },
  {
    GET: {
      operationId: "getProfile",
      tag: "Users",
      auth: "session",
      summary: "The caller's profile with the linked teacher or student data.",
      success: { status: 200, description: "The profile.", schema: profileResponse },
      errors: [401],
    },
    PUT: {
      operationId: "updateProfile",
      tag: "Users",
      auth: "session",
      summary:
        "Update the caller's profile (multipart with an optional avatar image, or JSON). Changing `email` requires " +
        "`currentPassword` (400 naming it when missing or wrong).",
      body: { schema: updateProfileBody, types: ["multipart", "json", "form"] },
      success: { status: 200, description: "The updated profile.", schema: profileResponse },
      errors: [400, 401, 409, 413, 415, 429],
      codes: { 400: ["INVALID_CURRENT_PASSWORD"], 409: ["EMAIL_TAKEN"] },
    },
  },
);

export const loader = handle;
export const action = handle;
