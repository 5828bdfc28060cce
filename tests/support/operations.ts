import { api } from "./api.ts";

/**
 * Every operation of the served OpenAPI document, for tests that walk them all (scope, secrets):
 * the document is generated from the route table and each route's declarations, so it is the list.
 */
export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  operationId: string;
  /** "session": the operation names a security scheme; "public": it names none. */
  auth: "session" | "public";
  body: boolean;
  queryParameters: string[];
};

type OperationObject = {
  operationId: string;
  security?: unknown[];
  requestBody?: unknown;
  parameters?: { name: string; in: string }[];
};

export async function documentedOperations(): Promise<Operation[]> {
  const response = await api("GET", "/api/openapi");
  if (response.status !== 200) throw new Error(`GET /api/openapi answered ${response.status}`);
  const paths = response.body.paths as Record<string, Record<string, OperationObject>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method as Operation["method"],
      path,
      operationId: operation.operationId,
      auth: operation.security && operation.security.length > 0 ? ("session" as const) : ("public" as const),
      body: operation.requestBody !== undefined,
      queryParameters: (operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
    })),
  );
}
