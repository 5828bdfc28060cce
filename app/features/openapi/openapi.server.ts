import { z } from "zod";
import { problemSchema } from "~/lib/schemas.ts";
import { SESSION_COOKIE_NAME } from "~/lib/auth/session.server.ts";
import { operations, type BodyType, type Operation } from "./operations.ts";

type JsonSchema = Record<string, unknown>;

const MEDIA_TYPES: Record<BodyType, string> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid parameters or body (malformed JSON, wrong types, unknown fields, out-of-range values).",
  401: "No valid session, or wrong credentials.",
  403: "The caller's role may not do this, or the CSRF check failed.",
  404: "Not found, or not visible in the caller's scope.",
  409: "Conflict with the current state.",
  413: "The body is too large (1 MiB JSON, 5 MiB multipart).",
  415: "Unsupported Content-Type.",
  429: "Rate limited; see Retry-After.",
};

/**
 * Renders Zod schemas into one OpenAPI 3.1 document (JSON Schema 2020-12). Schemas with a meta id
 * become named components; the same id used with different input and output shapes gets an
 * `Input` suffix for its input form.
 */
class ComponentCollector {
  readonly schemas: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
    const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
    delete converted.$defs;
    delete converted.$schema;
    const renamed: Record<string, string> = {};
    for (const [id, definition] of Object.entries(defs)) {
      let name = id;
      const existing = this.schemas[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) name = `${id}Input`;
      renamed[id] = name;
      defs[id] = definition;
    }
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value && typeof value === "object") {
        const entries = Object.entries(value as JsonSchema).map(([key, inner]) => {
          if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")) {
            const id = inner.slice("#/$defs/".length);
            return [key, `#/components/schemas/${renamed[id] ?? id}`];
          }
          return [key, rewrite(inner)];
        });
        const object = Object.fromEntries(entries) as JsonSchema;
        // Zod's date-time regex adds nothing for a reader beyond `format: date-time`.
        if (object.format === "date-time") delete object.pattern;
        return object;
      }
      return value;
    };
    for (const [id, definition] of Object.entries(defs)) this.schemas[renamed[id]!] = rewrite(definition) as JsonSchema;
    return rewrite(converted) as JsonSchema;
  }
}

function queryParameters(query: z.ZodObject, components: ComponentCollector) {
  return Object.entries(query.shape).map(([name, field]) => {
    const schema = components.convert(field as z.ZodType, "input");
    const optional = (field as z.ZodType).safeParse(undefined).success;
    const description = typeof schema.description === "string" ? schema.description : undefined;
    return { name, in: "query", required: !optional, ...(description ? { description } : {}), schema };
  });
}

function operationObject(operation: Operation, components: ComponentCollector) {
  const parameters = [
    ...(operation.pathParams ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(operation.query ? queryParameters(operation.query, components) : []),
  ];
  const errors = [...operation.errors, 500].sort();
  const responses: Record<string, unknown> = {
    [operation.success.status]: {
      description: operation.success.description,
      ...(operation.success.headers
        ? { headers: Object.fromEntries(operation.success.headers.map((h) => [h, { schema: { type: "string" } }])) }
        : {}),
      // A redirect has no body to describe.
      ...(operation.success.status >= 300 && operation.success.status < 400
        ? {}
        : {
            content: {
              [operation.success.contentType ?? "application/json"]: {
                schema: operation.success.schema ? components.convert(operation.success.schema, "output") : { type: "string", format: "binary" },
              },
            },
          }),
    },
  };
  for (const status of errors) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? "Unexpected error; nothing about the server is revealed.",
      ...(status === 429 ? { headers: { "Retry-After": { schema: { type: "integer" } } } } : {}),
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  const description = operation.roles ? `Roles: ${operation.roles}.` : undefined;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(description ? { description } : {}),
    tags: [operation.tag],
    security: operation.auth === "session" ? [{ sessionCookie: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              operation.body.types.map((type) => [MEDIA_TYPES[type], { schema: components.convert(operation.body!.schema, "input") }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

let cachedDocument: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (cachedDocument) return cachedDocument;
  const components = new ComponentCollector();
  components.convert(problemSchema, "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, components);
  }
  cachedDocument = {
    openapi: "3.1.0",
    info: {
      title: "Assessment Service API",
      version: "1.0.0",
      description:
        "Scored assessments for schools and clinics. Errors are RFC 9457 problem details. Sign in with " +
        "GET /api/auth/csrf then POST /api/auth/callback/credentials and send the session cookie back.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE_NAME },
      },
    },
  };
  return cachedDocument;
}
