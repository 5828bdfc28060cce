/**
 * An example for each body and response of the OpenAPI document, built from the schema itself so
 * it cannot drift from it: a schema's own `examples` (Zod's `.meta({ examples })`) win; then its
 * enum, default and format; then a realistic value for the fields every reader meets (a name, an
 * e-mail address, a title, a colour), by property name; then the type within its bounds. A test
 * checks that every example validates against its own schema.
 */
type JsonSchema = Record<string, unknown>;

const SAMPLE_BY_FORMAT: Record<string, string> = {
  "date-time": "2026-03-14T09:30:00.000Z",
  date: "2026-03-14",
  email: "ana.lima@school.example",
  uri: "https://school.example/",
  uuid: "7f9c2ba4-e88f-4d1b-9f3a-6a1b5c0d2e11",
};

/** Realistic values for the fields a reader meets everywhere, by property name. */
const SAMPLE_BY_NAME: Record<string, unknown> = {
  id: "cmf3k9x2a0001qz8h4b7c2d1e",
  name: "Ana Lima",
  studentName: "Ana Lima",
  respondentName: "Ana Lima",
  assignedByName: "Marta Ruiz",
  email: "ana.lima@school.example",
  phone: "+34 600 123 456",
  title: "Reading habits",
  formTitle: "Reading habits",
  description: "Ten questions on how often and how much pupils read.",
  category: "Screening",
  type: "Questionnaire",
  targetAudience: "Grade 5",
  grade: "5B",
  externalId: "S-1042",
  dateOfBirth: "2014-03-09",
  gender: "female",
  specialty: "Speech therapy",
  text: "How often do you read for pleasure?",
  label: "Medium",
  scoreLabel: "Medium",
  color: "#B54708",
  scoreColor: "#B54708",
  token: "k3J9vXq2bW8mZr5tY7uP1sN4aE6cH0dF",
  search: "lima",
  locale: "es",
  age: 11,
  totalScore: 5,
  maxScore: 8,
  percentage: 62.5,
  limit: 20,
};

export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, seen: readonly string[] = [], name?: string): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("default" in schema && schema.default !== undefined) return schema.default;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    // A schema that contains itself (none today) ends at its second visit.
    if (seen.includes(ref)) return null;
    return exampleOf(components[ref.replace("#/components/schemas/", "")] ?? {}, components, [...seen, ref], name);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => exampleOf(part as JsonSchema, components, seen, name));
    return parts.every((part) => part && typeof part === "object" && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  // A file has no example to print: an object leaves it out.
  if (schema.format === "binary") return undefined;
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = schema[key];
    // Branches that only narrow a typed schema (a file's media types) are not alternatives.
    if (Array.isArray(branches) && schema.type === undefined) {
      const branch = (branches as JsonSchema[]).find((candidate) => candidate.type !== "null") ?? branches[0];
      return exampleOf(branch as JsonSchema, components, seen, name);
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") as string | undefined) : (schema.type as string | undefined);
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const entries = Object.entries(properties).map(([key, property]) => [key, exampleOf(property, components, seen, key)] as const);
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
    }
    case "array": {
      if (schema.maxItems === 0) return [];
      const item = exampleOf((schema.items ?? {}) as JsonSchema, components, seen);
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
    }
    case "string": {
      const sample = SAMPLE_BY_FORMAT[String(schema.format)] ?? (name ? SAMPLE_BY_NAME[name] : undefined);
      if (typeof sample === "string" && sample.length <= Number(schema.maxLength ?? Number.POSITIVE_INFINITY)) return sample;
      const minimum = Number(schema.minLength ?? 0);
      const maximum = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
      const text = "text".padEnd(minimum, "x");
      return text.slice(0, Math.max(minimum, Math.min(text.length, maximum)));
    }
    case "integer":
    case "number": {
      // Zod bounds a whole number by the safe integers: no bound a reader would want to see.
      const bound = (value: unknown) => (typeof value === "number" && Math.abs(value) < 1e9 ? value : undefined);
      const exclusive = bound(schema.exclusiveMinimum);
      const low = bound(schema.minimum) ?? (exclusive !== undefined ? exclusive + 1 : undefined);
      const high = bound(schema.maximum);
      const named = name ? SAMPLE_BY_NAME[name] : undefined;
      if (typeof named === "number" && (low === undefined || named >= low) && (high === undefined || named <= high)) return named;
      const value = low ?? (high !== undefined ? Math.min(1, high) : 1);
      return type === "integer" ? Math.ceil(value) : value;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}
