import { rosterImportEndpoint } from "~/features/people/roster-import-endpoint.server.ts";

/** Import candidates from CSV (docs/api-contract.md §11); declared with its handler in rosterImportEndpoint. */
const handle = rosterImportEndpoint("candidates");

export const loader = handle;
export const action = handle;
