import { STAFF } from "~/lib/api-operation.ts";
import { fhirQuestionnaire, questionnaireJson } from "~/features/fhir/fhir-schemas.ts";
import { importQuestionnaire } from "~/features/fhir/fhir.server.ts";
import { UNSUPPORTED_FHIR_ELEMENT } from "~/features/fhir/questionnaire-import.ts";
import { formDetail } from "~/features/forms/form-schemas.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { readJsonBody } from "~/lib/http.server.ts";
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await importQuestionnaire(actor, await readJsonBody(request, questionnaireJson)), 201);
    },
  },
  {
    POST: {
      operationId: "importFormQuestionnaire",
      idempotencyKey: true,
      tag: "FHIR",
      auth: "session",
      roles: STAFF,
      summary: "Create a form of the caller's organization from a FHIR R4 Questionnaire (docs/fhir.md).",
      body: { schema: fhirQuestionnaire, types: ["fhir", "json"] },
      success: { status: 201, description: "The created form.", schema: formDetail, location: "/api/forms/{id}" },
      versioned: true,
      errors: [400, 401, 403, 413, 415],
      codes: { 400: [UNSUPPORTED_FHIR_ELEMENT] },
    },
  },
);

export const loader = handle;
export const action = handle;
