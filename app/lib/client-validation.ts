/**
 * The browser's half of a page form's validation (the server's half: client-validation.server.ts).
 * Serializable, so a loader can hand it to the page.
 */
export type Violation = "required" | "tooLong" | "tooShort" | "tooBig" | "tooSmall" | "invalid";

type Attributes = { required?: boolean; maxLength?: number; minLength?: number; min?: number | string; max?: number | string; pattern?: string };

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
  if (CONTROL_CHARACTERS.test(text)) return "invalid";
  return null;
}

/**
 * The errors the browser finds in a payload, as Conform's `FormError`. `form`: the form element,
 * whose fields are checked even when they post nothing (radio buttons none of which is chosen).
 */
export function clientErrors(payload: Record<string, unknown>, validation: ClientValidation, form?: HTMLFormElement) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, attributes] of Object.entries<Attributes>(validation.constraint)) {
    // A field this form does not show (another role's, say) is not the browser's to check.
    if (!(field in payload) && !form?.elements.namedItem(field)) continue;
    const violation = violationOf(payload[field], attributes);
    const message = violation ? validation.messages[field]?.[violation] : undefined;
    if (message) fieldErrors[field] = [message];
  }
  return { formErrors: null, fieldErrors };
}
