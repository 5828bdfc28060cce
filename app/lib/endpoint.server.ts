import type { RouterContextProvider } from "react-router";
import type { OperationDeclaration } from "~/lib/api-operation.ts";
import { ApiError, internalError, problemResponse } from "./problem.server.ts";
import { actorContext, clientAddressContext } from "./context.server.ts";
import { readIdempotencyKey, withIdempotencyKey } from "./idempotency.server.ts";
import { redactPath } from "./log-redaction.ts";
import { classifyRequestFailure, faultResponse } from "./request-faults.server.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The order `Allow` names methods in. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export type EndpointArgs = {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
};

type Handler<Args extends EndpointArgs> = (args: Args) => Promise<Response>;

/** The function a resource route exports as loader and action, with what it declares about itself. */
export type EndpointHandler<Args extends EndpointArgs> = ((args: Args) => Promise<Response>) & {
  operations: Partial<Record<Method, OperationDeclaration>>;
};

/**
 * Turns a map of method handlers into one function, exported as a resource route's loader and action. Every thrown ApiError
 * becomes problem details here, and anything unexpected is logged and answered with a 500 that
 * reveals nothing about the server. `endpoint<Route.LoaderArgs>({...})` keeps the route's typed params.
 *
 * An operation declared with `idempotencyKey` answers a repeated `Idempotency-Key` from what it
 * stored the first time (idempotency.server.ts), so each route module only says that it creates.
 *
 * What HTTP asks of every resource is answered here too (docs/api-contract.md §23, ADR 55): `HEAD` wherever
 * `GET` is (the same status and headers, no body), `OPTIONS` with 204 and `Allow`, another method
 * with 405 and `Allow`, and a 201 with the `Location` its declaration names.
 *
 * The second argument declares each method for the OpenAPI document (query, body, success and
 * error statuses). A method without a declaration (or a declaration without a handler) stops the
 * module from loading, so the server cannot start with an undocumented operation.
 */
export function endpoint<Args extends EndpointArgs = EndpointArgs>(
  handlers: Partial<Record<Method, Handler<Args>>>,
  operations: Partial<Record<Method, OperationDeclaration>>,
): EndpointHandler<Args> {
  const declared = Object.keys(operations).sort().join(", ");
  if (declared !== Object.keys(handlers).sort().join(", ")) {
    throw new Error(`endpoint(): the handlers (${Object.keys(handlers).join(", ")}) and the declared operations (${declared}) must name the same methods`);
  }
  const allow = METHOD_ORDER.filter((method) => method === "OPTIONS" || (method === "HEAD" ? "GET" in handlers : method in handlers)).join(", ");
  async function handle(args: Args): Promise<Response> {
    if (args.request.method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow } });
    const head = args.request.method === "HEAD";
    const method = (head ? "GET" : args.request.method) as Method;
    const handler = handlers[method];
    if (!handler) {
      return problemResponse(new ApiError(405, "METHOD_NOT_ALLOWED", `Use ${allow} on this path.`, undefined, { Allow: allow }));
    }
    const location = operations[method]?.success.location;
    const run = async (request: Request) => {
      try {
        const response = await handler(request === args.request ? args : { ...args, request });
        return location && response.status === 201 ? await withLocation(response, location) : response;
      } catch (error) {
        return errorResponse(error, args.request);
      }
    };
    if (head) return withoutBody(await run(args.request));
    // A signed-in caller's key; without a session the handler answers 401 as it would without one.
    const actor = operations[method]?.idempotencyKey ? args.context.get(actorContext) : null;
    if (actor) {
      try {
        const key = readIdempotencyKey(args.request.headers);
        if (key !== null) return await withIdempotencyKey(actor.userId, key, args.request, run);
      } catch (error) {
        return errorResponse(error, args.request);
      }
    }
    return run(args.request);
  }
  return Object.assign(handle, { operations });
}

/** A 201 with `Location`: `template`'s `{name}` parts (dotted for a nested field) filled from the created resource in the body. */
async function withLocation(response: Response, template: string): Promise<Response> {
  if (response.headers.has("Location")) return response;
  const created = (await response.clone().json()) as unknown;
  const field = (path: string) => {
    const value = path
      .split(".")
      .reduce<unknown>((object, key) => (object && typeof object === "object" ? (object as Record<string, unknown>)[key] : undefined), created);
    if (typeof value !== "string") throw new Error(`endpoint(): the created resource has no ${path} for its Location ${template}`);
    return encodeURIComponent(value);
  };
  response.headers.set(
    "Location",
    template.replace(/\{([\w.]+)\}/g, (_, path: string) => field(path)),
  );
  return response;
}

/** The answer to HEAD: GET's status and headers; the body is never read (an export stops at once). */
async function withoutBody(response: Response): Promise<Response> {
  await response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function errorResponse(error: unknown, request: Request): Response {
  if (error instanceof ApiError) return problemResponse(error);
  if (error instanceof Response) return error;
  const pathname = new URL(request.url).pathname;
  const fault = classifyRequestFailure(request, error);
  if (fault) return faultResponse(fault, pathname);
  console.error(`[${request.method} ${redactPath(pathname)}]`, error);
  return problemResponse(internalError());
}

export const actorOf = (context: Readonly<RouterContextProvider>) => context.get(actorContext);
export const clientAddressOf = (context: Readonly<RouterContextProvider>) => context.get(clientAddressContext);
