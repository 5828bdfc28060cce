import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/reports.$submissionId.fhir";
import { FHIR_JSON } from "~/features/fhir/fhir-extensions.ts";
import { fhirQuestionnaireResponse } from "~/features/fhir/fhir-schemas.ts";
import { questionnaireResponseOf } from "~/features/fhir/fhir.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { fhirJson } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => fhirJson(await questionnaireResponseOf(requireStaff(actorOf(context)), params.submissionId)),
  },
  {
    GET: {
      operationId: "getReportQuestionnaireResponse",
      tag: "FHIR",
      auth: "session",
      roles: STAFF,
      summary: "A completed result as a FHIR R4 QuestionnaireResponse, with its total and subscale scores as contained Observations (docs/fhir.md).",
      success: { status: 200, description: "The QuestionnaireResponse.", schema: fhirQuestionnaireResponse, contentType: FHIR_JSON },
      errors: [401, 403, 404, 409],
      codes: { 409: ["NOT_COMPLETED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
