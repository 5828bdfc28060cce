import { rosterExportEndpoint } from "~/features/people/roster-export-endpoint.server.ts";

/** Export candidates as a roster file the import reads back; declared with its handler in rosterExportEndpoint. */
const handle = rosterExportEndpoint("candidates");

export const loader = handle;
export const action = handle;
