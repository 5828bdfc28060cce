import { instrumentListResponse, listInstrumentsQuery } from "~/features/instruments/instrument-schemas.ts";
import { listInstruments } from "~/features/instruments/instruments.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      requireActor(actorOf(context));
      return json(listInstruments(readQuery(request, listInstrumentsQuery).language));
    },
  },
  {
    GET: {
      operationId: "listInstruments",
      tag: "Instruments",
      auth: "session",
      roles: "any signed-in user",
      summary:
        "The instrument library (docs/api-contract.md §17): every validated instrument the service ships, whole, so that a client can preview one before installing it. " +
        "`items` holds each item with its options and scores (their count is the item count); `scoring` holds the total's method, multiplier, missing-item rule and display, its bands with colours, the subscales and the source of the rules. " +
        "Texts are in `language` (default en); an instrument not given in it answers in English.",
      query: listInstrumentsQuery,
      success: { status: 200, description: "Every instrument, in the library's order.", schema: instrumentListResponse },
      errors: [400, 401],
    },
  },
);

export const loader = handle;
export const action = handle;
