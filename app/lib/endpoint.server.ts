import type { RouterContextProvider } from "react-router";
import type { OperationDeclaration } from "~/lib/api-operation.ts";
import { ApiError, internalError, problemResponse } from "./problem.server.ts";
import { actorContext, clientAddressContext } from "./context.server.ts";
import { readIdempotencyKey, withIdempotencyKey } from "./idempotency.server.ts";
import { redactPath } from "./log-redaction.ts";
import { classifyRequestFailure, faultResponse } from "./request-faults.server.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

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
 * The second argument declares each method for the OpenAPI document (query, body, success and
 * error statuses). A method without a declaration (or a declaration without a handler) stops the
 * module from loading, so the server cannot start with an undocumented operation.
 */
export function endpoint<Args extends EndpointArgs = EndpointArgs>(
  handlers: Partial<Record<Method, Handler<Args>>>,
  operations: Partial<Record<Method, OperationDeclaration>>,
): EndpointHandler<Args> {
  const allowed = Object.keys(handlers).join(", ");
  const declared = Object.keys(operations).sort().join(", ");
  if (declared !== Object.keys(handlers).sort().join(", ")) {
    throw new Error(`endpoint(): the handlers (${allowed}) and the declared operations (${declared}) must name the same methods`);
  }
  async function handle(args: Args): Promise<Response> {
    const handler = handlers[args.request.method as Method];
    if (!handler) {
      return problemResponse(new ApiError(405, "METHOD_NOT_ALLOWED", `Use ${allowed} on this path.`, undefined, { Allow: allowed }));
    }
    const run = async (request: Request) => {
      try {
        return await handler(request === args.request ? args : { ...args, request });
      } catch (error) {
        return errorResponse(error, args.request);
      }
    };
    // A signed-in caller's key; without a session the handler answers 401 as it would without one.
    const actor = operations[args.request.method as Method]?.idempotencyKey ? args.context.get(actorContext) : null;
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
