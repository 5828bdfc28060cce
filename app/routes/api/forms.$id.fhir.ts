import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.fhir";
import { FHIR_JSON } from "~/features/fhir/fhir-extensions.ts";
import { fhirQuestionnaire } from "~/features/fhir/fhir-schemas.ts";
import { questionnaireOf } from "~/features/fhir/fhir.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { fhirJson } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => fhirJson(await questionnaireOf(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getFormQuestionnaire",
      tag: "FHIR",
      auth: "session",
      roles: STAFF,
      summary: "A form as a FHIR R4 Questionnaire: items keyed by question key, option scores as ordinalValue, the scoring in extensions (docs/fhir.md).",
      success: { status: 200, description: "The Questionnaire.", schema: fhirQuestionnaire, contentType: FHIR_JSON },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
