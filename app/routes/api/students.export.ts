import { rosterExportEndpoint } from "~/features/people/roster-export-endpoint.server.ts";

/** Export students as a roster file the import reads back; declared with its handler in rosterExportEndpoint. */
const handle = rosterExportEndpoint("students");

export const loader = handle;
export const action = handle;
