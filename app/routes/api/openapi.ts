import { openApiQuery } from "~/features/openapi/operations.ts";
import { openApiDocument } from "~/features/openapi/openapi.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request }) => {
    readQuery(request, openApiQuery);
    return json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
  },
});

export const loader = handle;
export const action = handle;
