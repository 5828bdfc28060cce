import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { DELIVERY_TYPES } from "../../app/features/webhooks/webhook-events.ts";
import { api, freshIp } from "../support/api.ts";

/**
 * The OpenAPI document is the machine-readable contract: valid OpenAPI, complete against the
 * route table, honest about errors and authentication, and every operation in it really exists.
 */

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };
type OperationObject = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<
    string,
    { description?: string; headers?: Record<string, { description?: string }>; content?: Record<string, { schema?: Record<string, unknown> }> }
  >;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  webhooks: Record<string, { post: OperationObject }>;
  components: { securitySchemes: Record<string, Record<string, string>>; schemas: Record<string, Record<string, unknown>> };
};

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every URL pattern of the route config, parents joined to children as React Router does. */
function routePaths(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? [parent, entry.path].filter(Boolean).join("/") : parent;
    return [...(entry.path ? [own] : []), ...routePaths(entry.children ?? [], own)];
  });
}

/** The /api routes of app/routes.ts in OpenAPI form (`:id` → `{id}`), without the catch-all. */
const apiRoutes = [
  ...new Set(
    routePaths(routes as readonly RouteEntry[])
      .filter((path) => path === "api" || path.startsWith("api/"))
      .filter((path) => !path.includes("*"))
      .map((path) => `/${path}`.replace(/:(\w+)/g, "{$1}")),
  ),
];

let document: Document;
const operationsOf = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );

beforeAll(async () => {
  const response = await api("GET", "/api/openapi?format=json");
  expect(response.status).toBe(200);
  document = response.body;
});

describe("GET /api/openapi", () => {
  it("given format=json, should answer a JSON OpenAPI 3.1 document", async () => {
    const response = await api("GET", "/api/openapi?format=json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(response.body.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  });

  it("given no format, should answer the same document; an unknown format is a 400", async () => {
    const plain = await api("GET", "/api/openapi");
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(document);
    const yaml = await api("GET", "/api/openapi?format=yaml");
    expect(yaml.status).toBe(400);
    expect(yaml.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("given a real OpenAPI validator, should pass validation without errors or warnings", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("given app/routes.ts, should document every /api route and nothing else", () => {
    expect(apiRoutes.length).toBeGreaterThanOrEqual(15);
    expect(apiRoutes).toContain("/api/forms/{id}");
    expect(apiRoutes).toContain("/api/candidates/{id}/promote");
    expect(Object.keys(document.paths).sort()).toEqual([...apiRoutes].sort());
  });

  it("given the operations, should give each a unique operationId and declare its path parameters", () => {
    const ids = operationsOf().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, operation } of operationsOf()) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), path).toEqual(templated.sort());
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it("given the security schemes, should describe the session cookie remix-auth.session-token", () => {
    const schemes = Object.entries(document.components.securitySchemes);
    const cookie = schemes.find(([, scheme]) => scheme.type === "apiKey" && scheme.in === "cookie");
    expect(cookie?.[1].name).toBe("remix-auth.session-token");
    const [schemeName] = cookie!;
    for (const { path, method, operation } of operationsOf()) {
      const needsSession = (operation.security ?? []).some((requirement) => schemeName in requirement);
      // Public by the spec: sign-in, the public test links and the schema endpoint itself. Enrolling
      // a second factor (/api/auth/two-factor/*) is for the signed-in user.
      const isPublic =
        (path.startsWith("/api/auth/") && !path.startsWith("/api/auth/two-factor/")) || path.startsWith("/api/test-link/") || path === "/api/openapi";
      expect(needsSession, `${method} ${path}`).toBe(!isPublic);
    }
  });

  it("given the public test link, should document its every operation, each 404 for a link that leads nowhere and 429 when refused", () => {
    const linkOperations = operationsOf().filter(({ path }) => path.startsWith("/api/test-link/"));
    expect(linkOperations.map(({ method, operation }) => `${method} ${operation.operationId}`).sort()).toEqual(
      ["get openTestLink", "put saveTestDraft", "post submitTestLink", "get reviewTestLink", "get getTestLinkImage"].sort(),
    );
    for (const { operation } of linkOperations) expect(Object.keys(operation.responses), operation.operationId).toEqual(expect.arrayContaining(["404", "429"]));
    // The review answers 409 until the form's policy opens it (docs/api-contract.md §22).
    const review = linkOperations.find(({ operation }) => operation.operationId === "reviewTestLink")!.operation;
    expect(JSON.stringify(review.responses["409"])).toContain("REVIEW_NOT_AVAILABLE");
    expect(review.responses["200"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/TestLinkReview" });
  });

  it("given a write made with the session cookie, should require the CSRF header X-CSRF-Token with it; a bearer token is the other way in", () => {
    const header = Object.entries(document.components.securitySchemes).find(([, scheme]) => scheme.type === "apiKey" && scheme.in === "header");
    expect(header?.[1].name).toBe("X-CSRF-Token");
    const [schemeName] = header!;
    const bearer = Object.entries(document.components.securitySchemes).find(([, scheme]) => scheme.type === "http" && scheme.scheme === "bearer");
    expect(bearer, "the bearer scheme of personal API tokens").toBeDefined();
    for (const { path, method, operation } of operationsOf()) {
      const requirements = operation.security ?? [];
      if (requirements.length === 0) continue;
      const withCookie = requirements.filter((requirement) => !(bearer![0] in requirement));
      expect(
        requirements.some((requirement) => bearer![0] in requirement),
        `${method} ${path}: the bearer token`,
      ).toBe(true);
      const needsHeader = withCookie.every((requirement) => schemeName in requirement);
      expect(needsHeader, `${method} ${path}`).toBe(method !== "get");
      if (method !== "get") expect(Object.keys(operation.responses), `${method} ${path}`).toContain("403");
    }
  });

  it("given the responses, should name their schemas after what they are, never an …Input component", () => {
    for (const { path, method, operation } of operationsOf()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const references = JSON.stringify(response).match(/#\/components\/schemas\/\w+/g) ?? [];
        for (const reference of references) expect(reference, `${method} ${path} ${status}`).not.toMatch(/Input$/);
      }
    }
    const names = Object.keys(document.components.schemas);
    for (const name of names.filter((n) => n.endsWith("Input"))) expect(names, name).toContain(name.slice(0, -"Input".length));
  });

  it("given each operation, should list its error responses as problem+json with the Problem schema", () => {
    const problem = document.components.schemas.Problem;
    expect(problem).toBeDefined();
    expect(problem!.required).toEqual(expect.arrayContaining(["type", "title", "status", "detail", "code"]));
    for (const { path, method, operation } of operationsOf()) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      const errors = statuses.filter((status) => Number(status) >= 400);
      expect(errors, where).toContain("500");
      if ((operation.security ?? []).length > 0) expect(errors, where).toContain("401");
      if (operation.requestBody) expect(errors, where).toEqual(expect.arrayContaining(["400", "415"]));
      if (path.includes("{id}")) expect(errors, where).toContain("404");
      for (const status of errors) {
        const content = operation.responses[status]!.content ?? {};
        expect(Object.keys(content), `${where} ${status}`).toEqual(["application/problem+json"]);
        // The Problem schema, narrowed to the codes this operation can answer with this status.
        const schema = content["application/problem+json"]!.schema as { allOf: [{ $ref: string }, { properties: { code: { enum: string[] } } }] };
        expect(schema.allOf[0], `${where} ${status}`).toEqual({ $ref: "#/components/schemas/Problem" });
        expect(schema.allOf[1].properties.code.enum.length, `${where} ${status}`).toBeGreaterThan(0);
      }
      const successes = statuses.filter((status) => Number(status) < 400);
      expect(successes.length, where).toBeGreaterThan(0);
      for (const status of successes) {
        expect(Object.keys(operation.responses[status]!.content ?? {}), `${where} ${status}`).not.toContain("application/problem+json");
      }
    }
  });

  it("given every write, should list 403 TOKEN_SCOPE on it (a read-only token's refusal) and on nothing else, and say so in the bearer scheme", () => {
    const codes403 = (operation: OperationObject) =>
      (
        operation.responses["403"]?.content?.["application/problem+json"]?.schema as
          | { allOf?: [unknown, { properties: { code: { enum: string[] } } }] }
          | undefined
      )?.allOf?.[1].properties.code.enum ?? [];
    const operations = operationsOf();
    const withTokenScope = operations
      .filter(({ operation }) => codes403(operation).includes("TOKEN_SCOPE"))
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    // Every method but GET is a write, except the PDF export, which the specification makes a POST.
    const tokenWrites = operations
      .filter(({ path, method }) => method !== "get" && !(method === "post" && path === "/api/reports/export"))
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(withTokenScope.sort()).toEqual(tokenWrites.sort());
    // Among them the changes only a session may make to its own account, and what an integration writes.
    expect(tokenWrites).toEqual(
      expect.arrayContaining([
        "POST /api/user/password",
        "POST /api/auth/two-factor/setup",
        "POST /api/auth/two-factor/enable",
        "POST /api/auth/two-factor/disable",
        "POST /api/user/tokens",
        "DELETE /api/user/tokens/{id}",
        "POST /api/forms",
        "PUT /api/forms/{id}",
        "DELETE /api/students/{id}",
        "POST /api/students/import",
        "POST /api/submissions/bulk",
      ]),
    );
    expect(document.components.securitySchemes.bearerToken?.description).toContain('A read-only token (scopes ["read"])');
    for (const schema of ["ApiToken", "CreatedApiToken", "ApiTokenCreate"]) {
      expect(Object.keys(document.components.schemas[schema]?.properties as object), schema).toContain("scopes");
    }
  });

  it("given every body and every response with content, should give an example that its own schema accepts", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const withExamples: string[] = [];
    const refused: string[] = [];
    for (const { path, method, operation } of operationsOf()) {
      const contents = [
        ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [`body ${type}`, media] as const),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries(response.content ?? {}).map(([type, media]) => [`${status} ${type}`, media] as const),
        ),
      ];
      for (const [what, media] of contents) {
        const { schema, example } = media as { schema?: Record<string, unknown>; example?: unknown };
        const where = `${method} ${path} ${what}`;
        // A file (a PDF) has nothing to print as an example.
        if (schema?.format === "binary") continue;
        expect(example, where).toBeDefined();
        const validate = ajv.compile({ ...schema, components: document.components });
        if (!validate(example)) refused.push(`${where}: ${ajv.errorsText(validate.errors)}`);
        withExamples.push(where);
      }
    }
    expect(refused).toEqual([]);
    expect(withExamples.length).toBeGreaterThan(300);
  });

  it("given any request may send an API token, should list 401 with WWW-Authenticate and 429 with Retry-After on every operation", () => {
    for (const { path, method, operation } of operationsOf()) {
      const where = `${method} ${path}`;
      expect(Object.keys(operation.responses[401]?.headers ?? {}), where).toEqual(["WWW-Authenticate"]);
      expect(Object.keys(operation.responses[429]?.headers ?? {}), where).toEqual(["Retry-After"]);
      const codes = (
        operation.responses[429]!.content!["application/problem+json"]!.schema as { allOf: [unknown, { properties: { code: { enum: string[] } } }] }
      ).allOf[1].properties.code.enum;
      expect(codes, where).toContain("RATE_LIMITED");
    }
  });

  it("given every 201, should declare Location, except the batches that create many records", () => {
    const batches = ["post /api/submissions/bulk", "post /api/students/import", "post /api/candidates/import"];
    const created = operationsOf().filter(({ operation }) => operation.responses["201"]);
    expect(created.length).toBeGreaterThanOrEqual(12);
    for (const { path, method, operation } of created) {
      const where = `${method} ${path}`;
      const headers = Object.keys(operation.responses["201"]!.headers ?? {});
      if (batches.includes(where)) {
        expect(headers, where).not.toContain("Location");
        expect(operation.responses["201"]!.description, where).toContain("No Location");
      } else expect(headers, where).toContain("Location");
    }
  });

  it("given the records a client edits, should tag them with ETag and make their PUT conditional on If-Match (412)", () => {
    const versioned = operationsOf().filter(({ operation }) => Object.values(operation.responses).some((response) => response.headers?.ETag));
    expect(versioned.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        ...["forms", "students", "candidates", "groups"].flatMap((kind) => [`get /api/${kind}/{id}`, `put /api/${kind}/{id}`, `post /api/${kind}`]),
        // A form created from a FHIR Questionnaire.
        "post /api/forms/fhir",
        // Installing an instrument creates a form (docs/api-contract.md §17).
        "post /api/instruments/{key}/install",
        // Copying questions answers the form they were copied to (docs/api-contract.md §22).
        "post /api/forms/{id}/questions/copy",
      ].sort(),
    );
    for (const { path, method, operation } of versioned) {
      const conditional = method === "put";
      const where = `${method} ${path}`;
      expect(
        (operation.parameters ?? []).some((p) => p.in === "header" && p.name === "If-Match"),
        where,
      ).toBe(conditional);
      expect(Object.keys(operation.responses).includes("412"), where).toBe(conditional);
    }
    const with412 = operationsOf().filter(({ operation }) => operation.responses["412"]);
    expect(with412).toHaveLength(4);
  });

  it("given the roster imports and the reports export, should list the CSV body and the file types", () => {
    for (const path of ["/api/students/import", "/api/candidates/import"]) {
      const content = document.paths[path]!.post!.requestBody!.content as Record<string, { schema: Record<string, unknown>; example: unknown }>;
      expect(Object.keys(content).sort()).toEqual(["multipart/form-data", "text/csv"]);
      expect(content["text/csv"]!.schema.type).toBe("string");
      expect(content["text/csv"]!.example).toMatch(/^name,/);
    }
    expect(Object.keys(document.paths["/api/reports/export"]!.get!.responses["200"]!.content!).sort()).toEqual([
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "text/csv",
    ]);
    expect(Object.keys(document.paths["/api/reports/export"]!.post!.responses["200"]!.content!)).toEqual(["application/pdf"]);
  });

  it("given the cookie scheme, should say how a client gets and sends the CSRF token with it", () => {
    const { sessionCookie } = document.components.securitySchemes;
    expect(sessionCookie!.description).toContain("GET /api/auth/csrf");
    expect(sessionCookie!.description).toContain("remix-auth.csrf-token");
    expect(sessionCookie!.description).toContain("X-CSRF-Token");
  });

  it("given the identifiers, should say which format new records get", () => {
    // A sign-in provider's id is its name (`credentials`, `oidc`), not a record's.
    const records = Object.entries(document.components.schemas).filter(([name]) => name !== "AuthProvider");
    const ids = records.flatMap(([, schema]) => {
      const id = (schema.properties as Record<string, { description?: string }> | undefined)?.id;
      return id ? [id] : [];
    });
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(id.description).toMatch(/^A CUID: `c` and 24 lowercase letters and digits/);
  });

  it("given the webhooks, should describe each delivery type's signed body, with an example its schema accepts", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...DELIVERY_TYPES].sort());
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect((post.parameters ?? []).map((header) => `${header.in} ${header.name}`).sort(), type).toEqual([
        "header webhook-id",
        "header webhook-signature",
        "header webhook-timestamp",
      ]);
      const { schema, example } = post.requestBody!.content["application/json"] as { schema: Record<string, unknown>; example: { type: string } };
      const validate = ajv.compile({ ...schema, components: document.components });
      expect(validate(example), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(example.type).toBe(type);
      // The body is exactly what is sent: a field it does not name is refused.
      expect(validate({ ...example, extra: true }), type).toBe(false);
    }
  });

  it("given the list operations, should document page and limit with their bounds", () => {
    for (const path of ["/api/forms", "/api/students", "/api/candidates"]) {
      const parameters = document.paths[path]!.get!.parameters ?? [];
      const page = parameters.find((p) => p.name === "page");
      const limit = parameters.find((p) => p.name === "limit");
      expect(page?.schema).toMatchObject({ minimum: 1 });
      expect(limit?.schema).toMatchObject({ minimum: 1, maximum: 100 });
    }
  });

  it("given every documented operation called without a session, should reach it (401 for session routes, never 404 or 405)", async () => {
    // What a path without a route answers: an unknown record's 404 must differ from it.
    const noRoute = await api("GET", "/api/no-such-route-anywhere");
    expect(noRoute.status).toBe(404);
    const id = "cl0000000000000000000none";
    for (const { path, method, operation } of operationsOf()) {
      const concrete = path.replace(/\{\w+\}/g, id);
      const response = await api(method.toUpperCase(), concrete, {
        headers: { "x-forwarded-for": freshIp() },
        ...(operation.requestBody ? { json: {} } : {}),
      });
      const where = `${method.toUpperCase()} ${path}`;
      expect(response.status, where).not.toBe(405);
      if (response.status === 404) expect(response.body.detail, where).not.toBe(noRoute.body.detail);
      if ((operation.security ?? []).length > 0) {
        expect(response.status, where).toBe(401);
        expect(response.body.code, where).toBe("UNAUTHENTICATED");
      } else {
        expect(Object.keys(operation.responses), where).toContain(String(response.status));
      }
    }
  });

  it("given every documented operation called with a session, should reach it too (not 405)", async () => {
    for (const { path, method } of operationsOf()) {
      if (path.startsWith("/api/auth/")) continue;
      const response = await api(method.toUpperCase(), path.replace(/\{\w+\}/g, "cl0000000000000000000none"), {
        as: "superadmin@demo.test",
        ...(method === "get" || method === "delete" ? {} : { json: {} }),
      });
      expect(response.status, `${method} ${path}`).not.toBe(405);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
  });
});
