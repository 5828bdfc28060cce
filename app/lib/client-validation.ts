/**
 * The browser's half of a page form's validation (the server's half: client-validation.server.ts).
 * Serializable, so a loader can hand it to the page.
 */
export type Violation = "required" | "tooLong" | "tooShort" | "tooBig" | "tooSmall" | "invalid";

/**
 * A field's constraints: HTML's, with bounds a number may not reach (`exclusiveMin`), and
 * `requiredWith`, the fields beside it (by their last name) whose being filled makes it required:
 * the parts of a value posted as fields of their own, all empty for none.
 */
type Attributes = {
  required?: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number | string;
  max?: number | string;
  exclusiveMin?: number;
  exclusiveMax?: number;
  pattern?: string;
  requiredWith?: string[];
};

/** `Name`: the form's field names, so a page's `fields.email` is known to exist. */
export type ClientValidation<Name extends string = string> = {
  constraint: Record<Name, Attributes>;
  /** By field, the sentence for each constraint it can break, already in the page's language. */
  messages: Partial<Record<Name, Partial<Record<Violation, string>>>>;
};

const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The first constraint `value` breaks, checked as the server would. */
export function violationOf(value: unknown, attributes: Attributes): Violation | null {
  // Several values (checkboxes of one name): what was chosen, together.
  // A chosen file counts by its name; a file input left empty posts an empty, nameless file.
  const file = typeof File !== "undefined" && value instanceof File ? (value.size > 0 ? value.name : "") : undefined;
  const text = file ?? (typeof value === "string" ? value : Array.isArray(value) ? value.filter((item) => typeof item === "string").join("") : "");
  if (text.trim() === "") return attributes.required ? "required" : null;
  if (attributes.maxLength !== undefined && text.length > attributes.maxLength) return "tooLong";
  if (attributes.minLength !== undefined && text.trim().length < attributes.minLength) return "tooShort";
  if (attributes.max !== undefined && Number(text) > Number(attributes.max)) return "tooBig";
  if (attributes.min !== undefined && Number(text) < Number(attributes.min)) return "tooSmall";
  if (attributes.exclusiveMax !== undefined && Number(text) >= attributes.exclusiveMax) return "tooBig";
  if (attributes.exclusiveMin !== undefined && Number(text) <= attributes.exclusiveMin) return "tooSmall";
  if (CONTROL_CHARACTERS.test(text)) return "invalid";
  return null;
}

const filled = (value: unknown) => typeof value === "string" && value.trim() !== "";

type Found = { name: string; value: unknown; present: boolean; beside: Record<string, unknown> };

/**
 * The fields a constraint's name stands for in a payload: `title`, `reliableChange.sd`, or with
 * `[]` one for each item of a list (`subscales[].reliableChange.sd`: `subscales[0].reliableChange.sd`, ...).
 */
function fieldsNamed(tokens: readonly string[], value: unknown, prefix: string): Found[] {
  const [token, ...rest] = tokens;
  if (token === undefined) return [];
  if (token === "[]") return Array.isArray(value) ? value.flatMap((item, index) => fieldsNamed(rest, item, `${prefix}[${index}]`)) : [];
  const beside = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const name = prefix === "" ? token : `${prefix}.${token}`;
  if (rest.length === 0) return [{ name, value: beside[token], present: token in beside, beside }];
  return fieldsNamed(rest, beside[token], name);
}

/**
 * The errors the browser finds in a payload, as Conform's `FormError`. `form`: the form element,
 * whose fields are checked even when they post nothing (radio buttons none of which is chosen).
 */
export function clientErrors(payload: Record<string, unknown>, validation: ClientValidation, form?: HTMLFormElement) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [pattern, attributes] of Object.entries<Attributes>(validation.constraint)) {
    for (const { name, value, present, beside } of fieldsNamed(pattern.replaceAll("[]", ".[]").split("."), payload, "")) {
      // A field this form does not show (another role's, say) is not the browser's to check.
      if (!present && !form?.elements.namedItem(name)) continue;
      const required = attributes.required || (attributes.requiredWith?.some((other) => filled(beside[other])) ?? false);
      const violation = violationOf(value, { ...attributes, required });
      const message = violation ? validation.messages[pattern]?.[violation] : undefined;
      if (message) fieldErrors[name] = [message];
    }
  }
  return { formErrors: null, fieldErrors };
}
