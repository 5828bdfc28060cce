import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/instruments.$key.install";
import { formDetail } from "~/features/forms/form-schemas.ts";
import { installInstrumentBody } from "~/features/instruments/instrument-schemas.ts";
import { installInstrument } from "~/features/instruments/instruments.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await installInstrument(actor, params.key, await readJsonBody(request, installInstrumentBody)), 201);
    },
  },
  {
    POST: {
      operationId: "installInstrument",
      idempotencyKey: true,
      tag: "Instruments",
      auth: "session",
      roles: STAFF,
      summary:
        "Install a library instrument as a new, unpublished form of the caller's organization, in one of its languages: its items, option scores, reverse items, subscales, bands with colours, critical options, scoring and critical message, its instructions as the description, marked `instrument: {key, version, language}`. " +
        "Its items and scoring cannot be changed afterwards (PUT answers 409 INSTRUMENT_LOCKED); its title, description, publication and criticalMessage can. Each call makes another form; send `{}` for the defaults.",
      body: { schema: installInstrumentBody, types: ["json"] },
      success: { status: 201, description: "The created form, as GET /api/forms/{id} answers it.", schema: formDetail, location: "/api/forms/{id}" },
      versioned: true,
      errors: [400, 401, 403, 404, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
