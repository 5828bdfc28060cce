import { report, type Submission } from "@conform-to/react/future";
import { coerceFormValue } from "@conform-to/zod/v4/future";
import { z } from "zod";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import type { ClientValidation, Violation } from "~/lib/client-validation.ts";
import { issueTexts } from "./problem.server.ts";

type JsonSchema = {
  type?: string;
  anyOf?: JsonSchema[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
};

/**
 * The HTML constraints of each field of `schema`, read from its JSON Schema (what a form posts:
 * `io: "input"`): required, length and range, through `nullable()` and `optional()`.
 */
function constraintsOf(schema: z.ZodObject): ClientValidation["constraint"] {
  type ObjectSchema = { properties?: Record<string, JsonSchema>; required?: string[]; $ref?: string; $defs?: Record<string, ObjectSchema> };
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as ObjectSchema;
  // A schema with a meta id comes back as a reference to its definition.
  const json = root.$ref ? (root.$defs?.[root.$ref.replace("#/$defs/", "")] ?? root) : root;
  const constraint: ClientValidation["constraint"] = {};
  for (const [field, property] of Object.entries(json.properties ?? {})) {
    const value = property.anyOf?.find((branch) => branch.type !== "null") ?? property;
    constraint[field] = {
      required: json.required?.includes(field) ?? false,
      ...(value.maxLength !== undefined ? { maxLength: value.maxLength } : {}),
      ...(value.minLength !== undefined ? { minLength: value.minLength } : {}),
      ...(value.maximum !== undefined ? { max: value.maximum } : {}),
      ...(value.minimum !== undefined ? { min: value.minimum } : {}),
      ...(value.exclusiveMaximum !== undefined ? { exclusiveMax: value.exclusiveMaximum } : {}),
      ...(value.exclusiveMinimum !== undefined ? { exclusiveMin: value.exclusiveMinimum } : {}),
    };
  }
  return constraint;
}

/**
 * What a page form checks in the browser before it posts (ADR 18): the HTML constraints of the
 * same Zod schema the action validates with (Conform's `getZodConstraint`), and for each field the
 * sentence the server itself says when a constraint is broken, found by asking the schema (an
 * empty value, one character too many, ...). So a form says the same thing with JavaScript and
 * without it, in the page's language, and no Zod reaches the browser.
 */
export function clientValidation<S extends z.ZodObject>(schema: S, t: Dictionary): ClientValidation<keyof S["shape"] & string> {
  // The answer depends only on the schema and the language: derived once, not on every page load.
  let byLanguage = derived.get(schema);
  if (!byLanguage) derived.set(schema, (byLanguage = new Map()));
  let validation = byLanguage.get(t);
  if (!validation) byLanguage.set(t, (validation = deriveClientValidation(schema, t)));
  return validation as ClientValidation<keyof S["shape"] & string>;
}

const derived = new WeakMap<z.ZodObject, Map<Dictionary, ClientValidation>>();

function deriveClientValidation(schema: z.ZodObject, t: Dictionary): ClientValidation {
  const constraint = constraintsOf(schema);
  const formSchema = coerceFormValue(schema);
  // An empty field is posted as "" (what the schema itself says of that); other values as a form
  // sends them, coerced (a number field's text).
  const said = (field: string, value: string): string | undefined => {
    const result = (value === "" ? schema : formSchema).safeParse({ [field]: value });
    if (result.success) return undefined;
    return issueTexts(
      t,
      result.error.issues.filter((issue) => issue.path[0] === field),
    )[field];
  };
  const messages: ClientValidation["messages"] = {};
  for (const [field, attributes] of Object.entries(constraint)) {
    const probes: [Violation, string][] = [];
    if (attributes.required) probes.push(["required", ""]);
    if (attributes.maxLength !== undefined) probes.push(["tooLong", "x".repeat(attributes.maxLength + 1)]);
    if (attributes.minLength !== undefined && attributes.minLength > 1) probes.push(["tooShort", "x".repeat(attributes.minLength - 1)]);
    if (attributes.max !== undefined) probes.push(["tooBig", String(Number(attributes.max) + 1)]);
    if (attributes.min !== undefined) probes.push(["tooSmall", String(Number(attributes.min) - 1)]);
    // A bound the value may not reach is broken by the bound itself.
    if (attributes.max === undefined && attributes.exclusiveMax !== undefined) probes.push(["tooBig", String(attributes.exclusiveMax)]);
    if (attributes.min === undefined && attributes.exclusiveMin !== undefined) probes.push(["tooSmall", String(attributes.exclusiveMin)]);
    probes.push(["invalid", "\u0000"]);
    const fieldMessages: Partial<Record<Violation, string>> = {};
    for (const [violation, value] of probes) {
      const message = said(field, value);
      if (message) fieldMessages[violation] = message;
    }
    messages[field] = fieldMessages;
  }
  return { constraint, messages };
}

/**
 * The browser's checks of an object a page posts as fields of their own and leaves all empty for
 * none (`reliableChange.sd` and `reliableChange.reliability`): each field's constraints and
 * sentences from the object's own schema, named under `prefix` (`subscales[].reliableChange`: in
 * each subscale), a field the object requires being required once another of them is filled, with
 * what the schema says when it is left out. Merged into a form's with `withGroups`.
 */
export function groupValidation(schema: z.ZodObject, prefix: string, t: Dictionary): ClientValidation {
  const own = clientValidation(schema, t);
  const fields = Object.keys(own.constraint);
  const leftOut = schema.safeParse({});
  const missing = leftOut.success ? {} : issueTexts(t, leftOut.error.issues);
  const validation: ClientValidation = { constraint: {}, messages: {} };
  for (const field of fields) {
    const { required, ...attributes } = own.constraint[field]!;
    const name = `${prefix}.${field}`;
    validation.constraint[name] = required ? { ...attributes, requiredWith: fields.filter((other) => other !== field) } : attributes;
    validation.messages[name] = { ...own.messages[field], ...(required && missing[field] ? { required: missing[field] } : {}) };
  }
  return validation;
}

/** A form's browser checks with those of the groups it posts (`groupValidation`). */
export function withGroups(validation: ClientValidation, ...groups: ClientValidation[]): ClientValidation {
  return {
    constraint: Object.assign({}, validation.constraint, ...groups.map((group) => group.constraint)),
    messages: Object.assign({}, validation.messages, ...groups.map((group) => group.messages)),
  };
}

/**
 * The action's answer to a form it refused, for `useForm(pageFormOptions(...))`: Conform's `report()` with the
 * messages (already in the page's language) by field and for the whole form. Secrets are never sent back.
 */
export function pageResult(submission: Submission, errors: { fieldErrors: Record<string, string>; formError: string | null }) {
  const fieldErrors = Object.fromEntries(Object.entries(errors.fieldErrors).map(([field, message]) => [field, [message]]));
  return report<string[]>(submission, {
    error: { formErrors: errors.formError ? [errors.formError] : null, fieldErrors },
    hideFields: ["csrfToken", "password", "currentPassword", "newPassword", "code"],
  });
}
