import { z } from "zod";
import { openApiDocument, openApiQuery } from "~/features/openapi/openapi.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request }) => {
      readQuery(request, openApiQuery);
      return json(await openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
    },
  },
  {
    GET: {
      operationId: "getOpenApi",
      tag: "Service",
      auth: "public",
      summary: "This document.",
      query: openApiQuery,
      success: { status: 200, description: "The OpenAPI 3.1 document.", schema: z.object({ openapi: z.string() }).loose() },
      errors: [400],
    },
  },
);

export const loader = handle;
export const action = handle;
