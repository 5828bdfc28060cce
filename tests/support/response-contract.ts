import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { inject } from "vitest";

/**
 * Every JSON answer of a documented operation, checked against the OpenAPI document the service
 * serves: the status must be one the operation declares, and the body must match that response's
 * schema (errors: the Problem schema). A mismatch throws, so the test that made the request fails.
 * A webhook delivery's body is checked the same way against the document's `webhooks`.
 */

type ResponseObject = { content?: Record<string, { schema?: Record<string, unknown> }> };
type OperationObject = { operationId: string; responses: Record<string, ResponseObject> };
type WebhookObject = { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } };
type Document = { paths: Record<string, Record<string, OperationObject>>; webhooks: Record<string, WebhookObject>; components: Record<string, unknown> };

/** A method the path does not have: no operation to compare with. */
const ANY_OPERATION = new Set([405]);

let contract:
  | Promise<{
      match: (method: string, path: string) => OperationObject | undefined;
      webhook: (type: string) => WebhookObject | undefined;
      validator: (schema: Record<string, unknown>) => ValidateFunction;
    }>
  | undefined;

async function load() {
  const response = await fetch(`${inject("baseUrl")}/api/openapi`);
  const document = (await response.json()) as Document;
  const templates = Object.entries(document.paths).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`),
    literal: !path.includes("{"),
    item,
  }));
  // Literal paths win over templates (/api/reports/export before /api/reports/{submissionId}).
  templates.sort((a, b) => Number(b.literal) - Number(a.literal));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const cache = new Map<Record<string, unknown>, ValidateFunction>();
  return {
    match: (method: string, path: string) => templates.find((template) => template.pattern.test(path))?.item[method.toLowerCase()],
    webhook: (type: string) => (Object.hasOwn(document.webhooks, type) ? document.webhooks[type] : undefined),
    validator: (schema: Record<string, unknown>) => {
      let validate = cache.get(schema);
      if (!validate) {
        // References point into the document's components: compile each schema with them at its root.
        validate = ajv.compile({ ...schema, components: document.components });
        cache.set(schema, validate);
      }
      return validate;
    },
  };
}

/** The operationId the document gives this method on this path (undefined: none). */
export async function documentedOperationId(method: string, url: string): Promise<string | undefined> {
  contract ??= load();
  return (await contract).match(method, new URL(url, "http://x").pathname)?.operationId;
}

export async function checkAgainstContract(method: string, url: string, status: number, contentType: string, body: unknown): Promise<void> {
  const path = new URL(url, "http://x").pathname;
  if (!path.startsWith("/api/") || path === "/api/openapi") return;
  contract ??= load();
  const { match, validator } = await contract;
  const operation = match(method, path);
  if (!operation || ANY_OPERATION.has(status)) return;
  const where = `${method} ${path} → ${status}`;
  const declared = operation.responses[String(status)];
  if (!declared) throw new Error(`${where}: ${operation.operationId} does not declare this status`);
  if (!contentType.includes("json")) return;
  const mediaType = Object.keys(declared.content ?? {}).find((type) => contentType.startsWith(type));
  const schema = mediaType ? declared.content![mediaType]!.schema : undefined;
  if (!schema) throw new Error(`${where}: answered ${contentType}, which ${operation.operationId} does not declare`);
  const validate = validator(schema);
  if (!validate(body)) throw new Error(`${where}: the body does not match ${operation.operationId}'s schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
}

/** A webhook delivery's body (as received, JSON text), checked against the document's entry for its `type`; a mismatch throws. */
export async function checkWebhookBody(body: string): Promise<void> {
  contract ??= load();
  const { webhook, validator } = await contract;
  const parsed: unknown = JSON.parse(body);
  const type = String((parsed as { type?: unknown }).type);
  const entry = webhook(type);
  if (!entry) throw new Error(`a delivery of type ${type}, which the document's webhooks do not list`);
  const validate = validator(entry.post.requestBody.content["application/json"]!.schema);
  if (!validate(parsed)) throw new Error(`a ${type} delivery does not match its schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
}
