import { z } from "zod";
import { problemSchema } from "~/lib/schemas.ts";
import { en } from "~/i18n/en.ts";
import { problemText } from "~/lib/messages.ts";
import { ApiError, problemBody } from "~/lib/problem.server.ts";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_LIFETIME_MS,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  REPLAYED_HEADER,
} from "~/lib/idempotency.server.ts";
import { exampleOf } from "./examples.ts";
import { isWrite } from "~/lib/auth/api-token.server.ts";
import { CSRF_COOKIE_NAME } from "~/lib/auth/csrf.server.ts";
import { SESSION_COOKIE_NAME } from "~/lib/auth/session.server.ts";
import { API_TOKEN_LIMIT } from "~/lib/auth/api-token.server.ts";
import { AUTH_REALM, authenticationChallenge } from "~/lib/auth/challenge.server.ts";
import type { BodyType, Operation, OperationDeclaration } from "../../lib/api-operation.ts";
import { WEBHOOK_BODIES } from "../webhooks/webhook-payloads.ts";

type JsonSchema = Record<string, unknown>;

const MEDIA_TYPES: Record<BodyType, string> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
  csv: "text/csv",
  fhir: "application/fhir+json",
};

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid parameters or body (malformed JSON, wrong types, unknown fields, out-of-range values).",
  401: "No valid session, an API token that is refused (deleted, expired, its user deactivated: sent to any path, even a public one), or wrong credentials.",
  403: "The caller's role may not do this, the CSRF check failed, or the API token's scope does not allow it.",
  404: "Not found, or not visible in the caller's scope.",
  409: "Conflict with the current state.",
  412: "If-Match names a version the record no longer has (someone changed it since it was read): read it again, then send the change.",
  413: "The body is too large (1 MiB JSON, 5 MiB multipart).",
  415: "Unsupported Content-Type.",
  422: "The Idempotency-Key was used for another request (another path, query or body) in the last 24 hours.",
  429: `Rate limited; see Retry-After. Every request that sends an API token counts against the token's limit (${API_TOKEN_LIMIT.limit.toLocaleString("en-US")} per ${API_TOKEN_LIMIT.windowMs / 1000} seconds), whatever its path.`,
  503: "Busy, or the database is unavailable for a moment; see Retry-After.",
};

/**
 * The `code` values an error response can carry: those the HTTP stack and the shared helpers give
 * any operation with that status, then the operation's own (its `codes`). The HTTP tests check
 * every error they meet against this list.
 */
function errorCodes(operation: Operation, status: number): string[] {
  // Every write refuses a read-only token, sent to a public operation too: a bearer header is read wherever it comes (ADR 54).
  const tokenScope = isWrite(operation.method, operation.path) ? ["TOKEN_SCOPE"] : [];
  const generic: Record<number, string[]> = {
    400: ["VALIDATION_FAILED", "MALFORMED_REQUEST", ...(operation.body ? ["MALFORMED_JSON", "MALFORMED_BODY"] : [])],
    401: ["UNAUTHENTICATED"],
    403: ["FORBIDDEN", "CSRF_FAILED", "CROSS_SITE_REQUEST", ...tokenScope],
    404: ["NOT_FOUND"],
    412: ["PRECONDITION_FAILED"],
    413: ["PAYLOAD_TOO_LARGE"],
    415: ["UNSUPPORTED_MEDIA_TYPE"],
    429: ["RATE_LIMITED", ...(operation.body ? ["TOO_MANY_UPLOADS"] : [])],
    500: ["INTERNAL_ERROR"],
    503: ["SERVER_BUSY", "DATABASE_UNAVAILABLE"],
  };
  const idempotency: Record<number, string[]> = operation.idempotencyKey ? { 409: ["IDEMPOTENCY_KEY_IN_USE"], 422: ["IDEMPOTENCY_KEY_REUSED"] } : {};
  return [...new Set([...(generic[status] ?? []), ...(operation.codes?.[status] ?? []), ...(idempotency[status] ?? [])])];
}

/** The errors whose sentence the API gives in its own words (no page ever meets them), as an example answer shows them. */
const OWN_DETAIL: Record<string, () => ApiError> = { IDEMPOTENCY_KEY_IN_USE: idempotencyKeyInUse, IDEMPOTENCY_KEY_REUSED: idempotencyKeyReused };

const exampleProblem = (status: number, code: string) => problemBody(OWN_DETAIL[code]?.() ?? new ApiError(status, code, problemText(en, code, ["1"])));

const hours = IDEMPOTENCY_KEY_LIFETIME_MS / 3_600_000;

/** The request header of the operations that create something (docs/api-contract.md §23, ADR 48). */
const idempotencyKeyParameter = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: "header",
  required: false,
  description:
    `A key of the client's choosing (a UUID, say), new for each new request, as the IETF draft "The Idempotency-Key HTTP Header Field" describes: ` +
    `"8e03978e-40d5-43e8-bc93-6894a57f9324" (a Structured Field String) or the bare value, 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters (else 400). ` +
    `A repeat by the same user (a token acts as its owner) with the same key, method, path, query and body within ${hours} hours changes nothing and gets the first answer again ` +
    `(its status, body and Location), marked ${REPLAYED_HEADER}: true; 2xx and 4xx answers are kept, except 429. ` +
    `The same key with another request: 422 IDEMPOTENCY_KEY_REUSED. A repeat while the first is still being processed: 409 IDEMPOTENCY_KEY_IN_USE (send it again shortly).`,
  schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  example: "8e03978e-40d5-43e8-bc93-6894a57f9324",
};

const EXAMPLE_TAG = '"LXEWQrcmsEQBYnyp-6wy9chTD7G"';

/** The headers of the answers that name a record's version, and the request header that relies on one (docs/api-contract.md §23, ADR 55). */
const etagHeader = {
  ETag: {
    description:
      "The record's version, a strong entity tag that changes whenever its updatedAt does. Send it back in If-Match with a PUT to change the record only if nobody has changed it since.",
    schema: { type: "string" },
    example: EXAMPLE_TAG,
  },
};

const ifMatchParameter = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    "The ETag of the version the change is made to (from GET, or the last POST or PUT); several may be listed, or * for any version. " +
    "When the record has another version now (someone changed it since), nothing is changed and the answer is 412 PRECONDITION_FAILED. " +
    "Tags compare strongly: a weak one (W/…) never matches. Without If-Match the change is made whatever the version.",
  schema: { type: "string" },
  example: EXAMPLE_TAG,
};

const challengeHeader = {
  "WWW-Authenticate": {
    description:
      `The ways in: Bearer (a personal API token; with error="invalid_token" when the one sent was refused) and Cookie (the session cookie ${SESSION_COOKIE_NAME}, ` +
      `set by posting the credentials to /api/auth/callback/credentials), both in the realm "${AUTH_REALM}".`,
    schema: { type: "string" },
    example: authenticationChallenge(),
  },
};

const retryAfterHeader = { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } } };

const replayedHeader = {
  [REPLAYED_HEADER]: {
    description: `"true" when this is the stored answer to an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}.`,
    schema: { type: "string", enum: ["true"] },
  },
};

/**
 * Renders Zod schemas into one OpenAPI 3.1 document (JSON Schema 2020-12). Schemas with a meta id
 * become named components. Responses are converted first and keep the plain name; a request body
 * whose input shape differs from the response of the same id is named `…Input`, so no response
 * ever points at an `…Input` component.
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
      if (io === "input" && existing && JSON.stringify(existing) !== JSON.stringify(definition)) name = `${id}Input`;
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

  /** A media type object: the schema and an example built from it (examples.ts). */
  withExample(schema: JsonSchema) {
    return { schema, example: exampleOf(schema, this.schemas) };
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
  const conditionalWrite = operation.versioned && operation.method === "put";
  const parameters = [
    ...operation.pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(operation.query ? queryParameters(operation.query, components) : []),
    ...(operation.idempotencyKey ? [idempotencyKeyParameter] : []),
    ...(conditionalWrite ? [ifMatchParameter] : []),
  ];
  // Every operation can meet a failure on our side (500) and an overloaded or database-less moment
  // (503); any request may send an API token, which is refused (401) or counted against the
  // token's limit (429) whatever the path; a write made with the session cookie can fail its CSRF
  // check, and any write sent with a read-only token its scope (403); a PUT with If-Match can find
  // the record changed (412).
  const csrfChecked = operation.auth === "session" && operation.method !== "get";
  const errors = [
    ...new Set([
      ...operation.errors,
      401,
      ...(csrfChecked || isWrite(operation.method, operation.path) ? [403] : []),
      ...(conditionalWrite ? [412] : []),
      429,
      ...(operation.idempotencyKey ? [409, 422] : []),
      500,
      503,
    ]),
  ].sort();
  const { location } = operation.success;
  const successHeaders = {
    ...(operation.success.headers ? Object.fromEntries(operation.success.headers.map((h) => [h, { schema: { type: "string" } }])) : {}),
    ...(location ? { Location: { description: `${location}: where the created resource is.`, schema: { type: "string", format: "uri-reference" } } } : {}),
    ...(operation.versioned ? etagHeader : {}),
    ...(operation.idempotencyKey ? replayedHeader : {}),
  };
  const responses: Record<string, unknown> = {
    [operation.success.status]: {
      description: operation.success.description,
      ...(Object.keys(successHeaders).length > 0 ? { headers: successHeaders } : {}),
      // A redirect has no body to describe.
      ...(operation.success.status >= 300 && operation.success.status < 400
        ? {}
        : {
            content: Object.fromEntries(
              [operation.success.contentType ?? "application/json"].flat().map((type) => [
                type,
                operation.success.schema
                  ? components.withExample(components.convert(operation.success.schema, "output"))
                  : // A file (a PDF, a spreadsheet): no example to print.
                    { schema: { type: "string", format: "binary" } },
              ]),
            ),
          }),
    },
  };
  if (operation.alsoSuccess) {
    responses[operation.alsoSuccess.status] = {
      description: operation.alsoSuccess.description,
      ...(operation.idempotencyKey ? { headers: replayedHeader } : {}),
      content: { "application/json": components.withExample(components.convert(operation.alsoSuccess.schema, "output")) },
    };
  }
  if (operation.formRedirect) {
    responses["302"] = {
      description: operation.formRedirect,
      headers: { Location: { schema: { type: "string" } }, "Set-Cookie": { schema: { type: "string" } } },
    };
  }
  for (const status of errors) {
    const codes = errorCodes(operation, status);
    responses[status] = {
      description: `${STATUS_TEXT[status] ?? "Unexpected error; nothing about the server is revealed."} Codes: ${codes.join(", ")}.`,
      ...(status === 429 || status === 503 ? { headers: retryAfterHeader } : status === 401 ? { headers: challengeHeader } : {}),
      content: {
        "application/problem+json": {
          schema: { allOf: [{ $ref: "#/components/schemas/Problem" }, { type: "object", properties: { code: { enum: codes } } }] },
          // The first code's answer as the service gives it, with the English sentence for it.
          example: exampleProblem(status, codes[0] ?? "INTERNAL_ERROR"),
        },
      },
    };
  }
  const description = operation.roles ? `Roles: ${operation.roles}.` : undefined;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(description ? { description } : {}),
    tags: [operation.tag],
    // A cookie-bearing write also sends the CSRF token as a header (double submit).
    // Either way in: the session cookie (with the CSRF header on writes), or a personal API token.
    security:
      operation.auth === "session" ? [operation.method === "get" ? { sessionCookie: [] } : { sessionCookie: [], csrfHeader: [] }, { bearerToken: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body ? { requestBody: { required: true, content: bodyContent(operation.body, components) } } : {}),
    responses,
  };
}

/**
 * A request body in each media type it may come in. A `text/csv` body is the file itself: what a
 * multipart body sends in its field `file`.
 */
function bodyContent(body: NonNullable<Operation["body"]>, components: ComponentCollector) {
  const media = components.withExample(components.convert(body.schema, "input"));
  const csv = {
    schema: { type: "string", description: "The CSV file itself, as the whole body." },
    example: (media.example as { file?: unknown } | undefined)?.file,
  };
  return Object.fromEntries(body.types.map((type) => [MEDIA_TYPES[type], type === "csv" ? csv : media]));
}

/** The Standard Webhooks headers of every delivery. */
const DELIVERY_HEADERS = [
  {
    name: "webhook-id",
    description: "The delivery's id, the same on every retry of it: what a receiver deduplicates on.",
    schema: { type: "string" },
    example: "cmf3k9x2a0001qz8h4b7c2d1e",
  },
  {
    name: "webhook-timestamp",
    description: "When this attempt was signed, in seconds since the Unix epoch: refuse one too far from your clock.",
    schema: { type: "string", pattern: "^[0-9]+$" },
    example: "1773480600",
  },
  {
    name: "webhook-signature",
    description:
      "`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the endpoint's secret (the base64 after `whsec_`): verify it with any Standard Webhooks library.",
    schema: { type: "string" },
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  },
].map((header) => ({ ...header, in: "header", required: true }));

/**
 * The OpenAPI 3.1 `webhooks`: what we post to an endpoint, one entry per delivery type, its body
 * generated from the payload schemas the events are built with (webhook-payloads.ts).
 */
function webhookObjects(components: ComponentCollector) {
  return Object.fromEntries(
    WEBHOOK_BODIES.map(({ type, name, summary, description, body }) => [
      type,
      {
        post: {
          operationId: `on${name}`,
          summary,
          description,
          tags: ["Webhooks"],
          parameters: DELIVERY_HEADERS,
          requestBody: { required: true, content: { "application/json": components.withExample(components.convert(body, "output")) } },
          responses: {
            "2XX": { description: "Received. Any other answer is tried again later on the retry schedule (a test delivery is not)." },
            "410": { description: "Gone: the endpoint is no more, and this delivery is not tried again." },
          },
        },
      },
    ]),
  );
}

type BuiltRoute = { id: string; parentId?: string; path?: string; module: { loader?: { operations?: Record<string, OperationDeclaration> } } };

/**
 * Every declared /api operation at its place in app/routes.ts: the route table comes from the
 * server build (the same one that serves requests), each route's declarations from its module.
 */
export async function apiOperations(): Promise<Operation[]> {
  // The server build is this very bundle; imported when first asked, so there is no cycle at load.
  const build = (await import("virtual:react-router/server-build")) as unknown as { routes: Record<string, BuiltRoute> };
  const fullPath = (route: BuiltRoute): string => {
    const parent = route.parentId ? build.routes[route.parentId] : undefined;
    return [parent ? fullPath(parent) : "", route.path ?? ""].filter(Boolean).join("/");
  };
  const operations: Operation[] = [];
  for (const route of Object.values(build.routes)) {
    const declared = route.module.loader?.operations;
    if (!declared) continue;
    const path = `/${fullPath(route)}`.replace(/:(\w+)/g, "{$1}");
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    for (const [method, declaration] of Object.entries(declared)) {
      operations.push({ ...declaration, method: method.toLowerCase() as Operation["method"], path, pathParams });
    }
  }
  return operations.sort((a, b) => a.path.localeCompare(b.path));
}

/** What each group of operations is for, in the order a reader meets them. */
const TAGS: Record<string, string> = {
  Authentication: "Sign in and out, the CSRF token, the second factor, passwords and OpenID Connect.",
  Forms: "Scored tests: questions, options with scores, and the score ranges that turn a total into a label and a colour.",
  Students: "An organization's students and their results.",
  Candidates: "An organization's candidates; a candidate can be promoted to a student.",
  Groups: "Classes and caseloads: students and candidates assigned and followed together.",
  Submissions: "Assigning a form to a student or candidate: each assignment is a private test link.",
  Schedules:
    "A form assigned again every few days: each occurrence, at the start of its day in the organization's time zone, makes the links as a bulk assignment does.",
  "Public test links": "What the respondent's browser calls: open a test link and submit the answers once, without an account.",
  Reports: "Completed tests: search by person, form and date, read one, export it as a PDF.",
  Users: "The signed-in user's profile, password and API tokens, and the accounts an administrator manages.",
  Webhooks:
    "Endpoints an administrator adds to be told about the organization's events, signed per Standard Webhooks. What each delivery holds is under `webhooks`.",
  Organization: "The organization's settings: its name and the time zone its dates are read in.",
  Audit: "The organization's append-only record of who did what: sign-ins, changes, reads of reports, exports, erasures.",
  Service: "About the service itself.",
};

/** GET /api/openapi's query: JSON is the one format. */
export const openApiQuery = z.strictObject({ format: z.enum(["json"]).default("json") });

let cachedDocument: JsonSchema | undefined;

export async function openApiDocument(): Promise<JsonSchema> {
  if (cachedDocument) return cachedDocument;
  const operations = await apiOperations();
  const components = new ComponentCollector();
  components.convert(problemSchema, "output");
  // Every response before any request body (see ComponentCollector).
  for (const operation of operations) {
    if (operation.success.schema) components.convert(operation.success.schema, "output");
    if (operation.alsoSuccess) components.convert(operation.alsoSuccess.schema, "output");
  }
  // What we post is also what we answer with: named as responses are.
  const webhooks = webhookObjects(components);
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
        "GET /api/auth/csrf then POST /api/auth/callback/credentials and send the session cookie back, or send a personal API token as Authorization: Bearer. " +
        "A 401 names both ways in (WWW-Authenticate). HEAD is answered wherever GET is (the same status and headers, no body), and OPTIONS on every path " +
        "with 204 and Allow; a method a path does not have answers 405 with Allow. Identifiers are CUIDs (see the schemas' id fields).",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((o) => o.tag))]
      .sort((a, b) => Object.keys(TAGS).indexOf(a) - Object.keys(TAGS).indexOf(b))
      .map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) })),
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE_NAME,
          description:
            `The session, set by POST /api/auth/callback/credentials. It comes with a CSRF cookie: GET /api/auth/csrf answers {csrfToken} and sets ${CSRF_COOKIE_NAME} ` +
            "(HttpOnly, signed; the same token as long as the cookie lasts). Sign-in, sign-out and the OpenID Connect sign-in send the token in their body (csrfToken); every other write made with the session " +
            "cookie sends both cookies and the token in the X-CSRF-Token header (csrfHeader): a double submit, the two must match, else 403 CSRF_FAILED. " +
            "A browser on this service's own pages is recognised by Sec-Fetch-Site (or Origin) instead, and a write another site makes it send is 403 CROSS_SITE_REQUEST.",
        },
        csrfHeader: {
          type: "apiKey",
          in: "header",
          name: "X-CSRF-Token",
          description: `The token of GET /api/auth/csrf, sent with its cookie ${CSRF_COOKIE_NAME} (and the session cookie) on every write made with the session cookie; without it, or when the two do not match, the answer is 403 CSRF_FAILED.`,
        },
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal API token (POST /api/user/tokens, or the profile page): acts as its user with the same role and scope, needs no CSRF token; 401 once deleted or expired, or when its user is deactivated. " +
            'A read-only token (scopes ["read"]) may GET, HEAD and OPTIONS anything its user may read, and POST /api/reports/export (a PDF); every other request it comes with (POST, PUT, PATCH, DELETE, public operations included) answers 403 TOKEN_SCOPE and changes nothing. ' +
            'A token with ["read", "write"] may do what its user may, except change the password, the second factor or the tokens (403 TOKEN_SCOPE: only from a session).',
        },
      },
    },
  };
  return cachedDocument;
}
