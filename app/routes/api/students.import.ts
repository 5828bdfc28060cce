import { rosterImportEndpoint } from "~/features/people/roster-import-endpoint.server.ts";

/** Import students from CSV (docs/api-contract.md §11); declared with its handler in rosterImportEndpoint. */
const handle = rosterImportEndpoint("students");

export const loader = handle;
export const action = handle;
